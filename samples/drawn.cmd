cutboard render drawn.obj -o drawn.pdf --json drawn.json
