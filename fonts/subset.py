#!/usr/bin/env python3
"""Makes FudaSansJP-Regular.otf, the font `fuda proof` measures text with and its tests render
with: a subset of Noto Sans CJK JP Regular (SIL OFL 1.1, see OFL.txt) renamed "Fuda Sans JP".

Run from the repository root, with fonttools installed (`pip install fonttools`) and Debian's
fonts-noto-cjk (`apt install fonts-noto-cjk`):

    python3 fonts/subset.py

It keeps: ASCII, JIS X 0208 (kana, level-1 and level-2 kanji, full-width punctuation and
symbols), the full-width and half-width forms, circled numbers, and every character of the
shipped cards and rulesets (`cards/**/*.fuda`) and of the printed-text words of the core
(`src/ir/render/**/*.rs`), so a card text's new character is kept the next time it is run.
"""

import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FAMILY = "Fuda Sans JP"
OUT = pathlib.Path("fonts/FudaSansJP-Regular.otf")


def characters():
    chars = {chr(c) for c in range(0x20, 0x7F)}
    # JIS X 0208: rows 1-84 (0x21-0x74), cells 1-94, read through EUC-JP.
    for row in range(0x21, 0x75):
        for cell in range(0x21, 0x7F):
            try:
                chars.add(bytes([row | 0x80, cell | 0x80]).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    chars.update(chr(c) for c in range(0xFF01, 0xFF9F + 1))  # full-width and half-width forms
    chars.update(chr(c) for c in range(0x2460, 0x2473 + 1))  # ① … ⑳
    chars.update(chr(c) for c in range(0x3000, 0x303F + 1))  # CJK symbols and punctuation
    chars.update(chr(c) for c in range(0x3040, 0x30FF + 1))  # kana
    chars.update("・…‥―‐–—‘’“”☆★○●◎◇◆□■△▲▽▼※→←↑↓×÷±∞")
    root = pathlib.Path(".")
    files = list(root.glob("cards/**/*.fuda")) + list(root.glob("src/ir/render/**/*.rs"))
    for f in files:
        chars.update(c for c in f.read_text(encoding="utf-8") if c.isprintable())
    return chars


def main():
    if not pathlib.Path("cards").is_dir():
        sys.exit("run from the repository root: python3 fonts/subset.py")
    font = TTCollection(SOURCE).fonts[0]  # Noto Sans CJK JP
    options = subset.Options()
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(characters())))
    sub.subset(font)
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID == 3:
            record.string = f"{FAMILY} Regular; subset of Noto Sans CJK JP 2.004"
        elif record.nameID == 4:
            record.string = f"{FAMILY} Regular"
        elif record.nameID == 6:
            record.string = "FudaSansJP-Regular"
    font.recalcTimestamp = False
    font.save(str(OUT))
    print(f"{OUT}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
