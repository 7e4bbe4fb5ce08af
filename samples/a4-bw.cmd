cutboard --players 4 --seed 'grey day' -o a4-bw.pdf --json a4-bw.json
