cutboard --shared --players 9 --seed 'big table' --paper a3 -o shared-a3-9.pdf --json shared-a3-9.json
