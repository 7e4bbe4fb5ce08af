cutboard --players 4 --seed 'game night' -o four-a4.pdf --json four-a4.json
