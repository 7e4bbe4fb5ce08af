cutboard deck --seed shop --count 2 --bleed 3mm --crop-marks --cmyk --manifest shop-deck.jsonl -o shop-deck.pdf
