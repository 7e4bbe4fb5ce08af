cutboard --players 3 --seed 'pancake' --paper letter --ink-friendly -o letter-ink.pdf --json letter-ink.json
