"""ai/services"""
