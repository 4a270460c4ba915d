"""Looking at games with the strategy: the analysis of a finished game, the review, the
chances to win and the coach's advice. Pure (no Django); the live room and the pages use it.
"""
