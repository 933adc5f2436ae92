"""Each language's typed facts, handed from one stage to the next; below every stage so any stage may import them."""
