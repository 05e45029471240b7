"""game/cli"""
