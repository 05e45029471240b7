"""ai/kernel"""
