cutboard network --model scale-free --nodes 40 --seed caves --geometric --analyze -o network-scale-free-geo.pdf --json network-scale-free-geo.json
