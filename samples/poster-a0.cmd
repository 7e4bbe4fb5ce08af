cutboard --shared --paper a0 --resolution 120 --seed poster -o poster-a0.pdf
