"""The web pages, one module per audience: `director` (the director's console) and `public`
(home, published standings, health). Each view reads with a selector or calls one service."""
