cutboard network --model small-world --nodes 30 --seed dungeon --analyze -o network-small-world.pdf --json network-small-world.json
