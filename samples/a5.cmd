cutboard --players 2 --seed 'small table' --paper a5 -o a5.pdf --json a5.json
