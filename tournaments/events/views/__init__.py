"""The web pages, one module per audience and job; each view reads or calls one service.

`director` (the director's console, a package with one module per job), `printing` and
`exports` (the director's documents and files), `public` (home, published results, health),
`live` (the results pages' live stream), `tablets` (the page at each table).
"""
