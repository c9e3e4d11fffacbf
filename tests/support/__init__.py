"""What several test modules share: the repository's root, and helpers that are not tests."""
