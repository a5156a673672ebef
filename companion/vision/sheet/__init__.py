"""The Delicious score-sheet reader: cells, marks, letters, and the decision between them."""
