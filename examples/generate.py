#!/usr/bin/env python3
"""Writes the bundled example maps and the defects README with exact line numbers.

    python3 examples/generate.py

clean/Room.t3d   a small valid UE1 map, laid out exactly as UnrealEd exports it.
defects/Defects.t3d + defects/README.md   a defect for each T3D rule one map can show, each
explained in the README by the line the rule reports (a test checks that lint reports exactly
these); comments inside a T3D file would be defects of their own.

The .t3d files are committed; rerun this after changing it and commit the output.
"""

import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def normalize(v):
    length = math.sqrt(dot(v, v))
    return (v[0] / length, v[1] / length, v[2] / length) if length > 0 else v


def polygon_normal(vertices):
    """normalize(sum over i>=2 of (V[i-1]-V[0]) x (V[i]-V[0])), as UnrealEd stores it."""
    v0 = vertices[0]
    total = (0.0, 0.0, 0.0)
    for i in range(2, len(vertices)):
        c = cross(sub(vertices[i - 1], v0), sub(vertices[i], v0))
        total = (total[0] + c[0], total[1] + c[1], total[2] + c[2])
    return normalize(total)


def texture_axes(normal):
    """UnrealEd's default alignment: U horizontal and V down on walls, U along X on floors."""
    if abs(normal[2]) > 0.7:
        x = (1.0, 0.0, 0.0)
        u = normalize(sub(x, tuple(normal[i] * dot(x, normal) for i in range(3))))
        return u, normalize(cross(normal, u))
    down = (0.0, 0.0, -1.0)
    v = normalize(sub(down, tuple(normal[i] * dot(down, normal) for i in range(3))))
    return normalize(cross(v, normal)), v


def vec(v):
    return ",".join("%+013.6f" % c for c in v)


class Writer:
    def __init__(self):
        self.lines = []
        self.notes = []

    def line(self, text):
        self.lines.append(text)
        return len(self.lines)  # 1-based number of the line just written

    def note(self, line, text):
        self.notes.append((line, text))

    def text(self):
        return "".join(l + "\r\n" for l in self.lines)

    def prop(self, text):
        return self.line("     " + text)

    def polygon(self, vertices, indent=10, texture=None, flags=0, normal=None, u=None,
                v=None, extra=None, pan=None):
        """Writes one polygon; returns the line number of its `Begin Polygon`."""
        pad, inner = " " * indent, " " * (indent + 3)
        head = "Begin Polygon"
        if texture:
            head += " Texture=" + texture
        if flags:
            head += " Flags=%d" % (flags - (1 << 32) if flags & 0x80000000 else flags)
        begin = self.line(pad + head)
        computed = polygon_normal(vertices) if normal is None else normal
        du, dv = texture_axes(polygon_normal(vertices) if normal is None else normal)
        self.line(inner + "Origin   " + vec(vertices[0]))
        self.line(inner + "Normal   " + vec(computed))
        self.line(inner + "TextureU " + vec(u if u is not None else du))
        self.line(inner + "TextureV " + vec(v if v is not None else dv))
        if pan:
            self.line(inner + "Pan      U=%d V=%d" % pan)
        for i, vertex in enumerate(vertices):
            self.line(inner + "Vertex   " + vec(vertex))
            if extra is not None and i == 0:
                extra["line"] = self.line(inner + extra["text"])
        self.line(pad + "End Polygon")
        return begin

    def brush(self, model, polygons, polylist=True):
        self.line("    Begin Brush Name=" + model)
        if polylist:
            self.line("       Begin PolyList")
        for p in polygons:
            self.polygon(**p)
        if polylist:
            self.line("       End PolyList")
        self.line("    End Brush")


def box(sx, sy, sz):
    """Six outward-facing quads of an axis-aligned box centred on the origin."""
    hx, hy, hz = sx / 2, sy / 2, sz / 2

    def p(a, b, c):
        return (a * hx, b * hy, c * hz)

    faces = [
        [p(-1, -1, -1), p(-1, -1, 1), p(-1, 1, 1), p(-1, 1, -1)],
        [p(1, -1, -1), p(1, 1, -1), p(1, 1, 1), p(1, -1, 1)],
        [p(-1, -1, -1), p(1, -1, -1), p(1, -1, 1), p(-1, -1, 1)],
        [p(-1, 1, -1), p(-1, 1, 1), p(1, 1, 1), p(1, 1, -1)],
        [p(-1, -1, -1), p(-1, 1, -1), p(1, 1, -1), p(1, -1, -1)],
        [p(-1, -1, 1), p(1, -1, 1), p(1, 1, 1), p(-1, 1, 1)],
    ]
    for face in faces:
        centre = tuple(sum(v[i] for v in face) / 4 for i in range(3))
        assert dot(polygon_normal(face), centre) > 0, "faces point outward"
    return faces


def level_info(w):
    w.line("Begin Actor Class=LevelInfo Name=LevelInfo0")
    w.prop("TimeSeconds=42.000000")
    w.prop("Summary=LevelSummary'MyLevel.LevelSummary'")
    w.prop('Title="Example Room"')
    w.prop('Author="unreal-ls"')
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop('Tag="LevelInfo"')
    w.prop("Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)")
    w.prop('Name="LevelInfo0"')
    w.line("End Actor")


def builder_brush(w):
    w.line("Begin Actor Class=Brush Name=Brush")
    w.prop("MainScale=(SheerAxis=SHEER_ZX)")
    w.prop("PostScale=(SheerAxis=SHEER_ZX)")
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop('Tag="Brush"')
    w.prop("Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)")
    w.prop("bSelected=True")
    w.brush("Brush", [dict(vertices=f) for f in box(256, 256, 256)])
    w.prop("Brush=Model'MyLevel.Brush'")
    w.prop('Name="Brush"')
    w.line("End Actor")


def subtractive(w, name, model, size, location, texture, reference=None):
    w.line("Begin Actor Class=Brush Name=" + name)
    w.prop("CsgOper=CSG_Subtract")
    w.prop("MainScale=(SheerAxis=SHEER_ZX)")
    w.prop("PostScale=(SheerAxis=SHEER_ZX)")
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop('Tag="Brush"')
    w.prop("Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)")
    if location:
        w.prop("Location=" + location)
    w.brush(model, [dict(vertices=f, texture=texture) for f in box(*size)])
    line = w.prop("Brush=Model'MyLevel.%s'" % (reference or model))
    w.prop('Name="%s"' % name)
    w.line("End Actor")
    return line


def clean():
    w = Writer()
    w.line("Begin Map")
    level_info(w)
    w.line("Begin Actor Class=PlayerStart Name=PlayerStart0")
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop('Tag="PlayerStart"')
    w.prop("Region=(Zone=LevelInfo'MyLevel.LevelInfo0',iLeaf=-1)")
    w.prop("Location=(X=-128.000000,Z=-80.000000)")
    w.prop('Name="PlayerStart0"')
    w.line("End Actor")
    builder_brush(w)
    subtractive(w, "Brush0", "Model0", (512, 512, 256), None,
                "GenFloor.Floor.Flr06")
    subtractive(w, "Brush1", "Model1", (384, 128, 128), "(X=384.000000,Z=-64.000000)",
                "Ancient.Wall.Awall3")
    w.line("End Map")
    return w


def defects():
    w = Writer()
    w.line("Begin Map")
    level_info(w)
    builder_brush(w)

    # One brush whose polygon list holds one defect per polygon.
    w.line("Begin Actor Class=Brush Name=Brush0")
    w.prop("CsgOper=CSG_Subtract")
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop('Tag="Brush"')
    w.prop("Location=(X=1024.000000)")
    w.line("    Begin Brush Name=Model0")
    w.line("       Begin PolyList")
    quad = [(0, 0, 0), (0, 128, 0), (128, 128, 0), (128, 0, 0)]  # normal -Z

    # A malformed number in a vertex.
    begin = w.polygon(quad)
    bad = begin + 5  # Origin, Normal, TextureU, TextureV, then the first Vertex
    w.lines[bad - 1] = " " * 13 + "Vertex   +00000.000000,+000x0.000000,+00000.000000"
    w.note(bad, "`t3d-malformed-number`: `+000x0.000000` is not a number.")

    # An unknown line inside a polygon.
    extra = {"text": "Smoothing 1"}
    w.polygon(quad, extra=extra)
    w.note(extra["line"], "`t3d-unknown-polygon-line`: `Smoothing` is not a polygon line "
           "(UnrealEd knows Origin, Normal, Pan, TextureU, TextureV, Vertex).")

    line = w.polygon([(0, 0, 0), (0, 128, 0)], normal=(0, 0, -1))
    w.note(line, "`t3d-too-few-vertices`: a polygon with 2 vertices.")

    ring = [(256 * math.cos(2 * math.pi * i / 17), 256 * math.sin(2 * math.pi * i / 17), 0)
            for i in range(17)]
    line = w.polygon(ring)
    w.note(line, "`t3d-too-many-vertices`: 17 vertices; UnrealEd's FPoly holds at most 16.")

    line = w.polygon([(0, 0, 0), (64, 0, 0), (128, 0, 0), (192, 0, 0)], normal=(0, 0, 1))
    w.note(line, "`t3d-degenerate-polygon`: all four vertices lie on one line (no area, "
           "no normal).")

    concave = [(0, 0, 0), (0, 128, 0), (128, 128, 0), (64, 64, 0), (128, 0, 0)]
    line = w.polygon(concave)
    w.note(line, "`t3d-non-convex-polygon`: the fourth vertex (64,64) dents the pentagon "
           "inward; BSP building needs convex polygons.")

    warped = [(0, 0, 0), (0, 128, 0), (128, 128, 0), (128, 0, 5)]
    line = w.polygon(warped)
    w.note(line, "`t3d-non-planar-polygon`: the last vertex is 5 units off the plane of the "
           "others (the engine allows 0.1).")

    line = w.polygon(quad, normal=(0, 0, 1), u=(1, 0, 0), v=(0, -1, 0))
    # The finding is on the `Normal` line, two below `Begin Polygon`.
    w.note(line + 2, "`t3d-normal-mismatch` (a hint: import recomputes the normal): `Normal` says "
           "+Z; the vertices' winding gives -Z.")

    line = w.polygon(quad, u=(0, 1, 0), v=(0, 1, 0))
    # The finding is on the `TextureV` line, four below `Begin Polygon`.
    w.note(line + 4, "`t3d-bad-texture-axes`: TextureU and TextureV are parallel, so the "
           "texture collapses to a line.")

    line = w.polygon(quad, flags=0x20000000, texture="Bkgnd", pan=(16, 0))
    w.note(line, "`t3d-unknown-poly-flag`: `Flags=536870912` is bit 0x20000000, which UE1 "
           "does not define (it is Mirrored in UE2). The `Pan` line and the bare texture name "
           "mark the map as UE1 for `--engine auto`.")

    w.line("       End PolyList")
    w.line("    End Brush")
    w.prop("Brush=Model'MyLevel.Model0'")
    w.prop('Name="Brush0"')
    w.line("End Actor")

    # A polygon straight inside the brush, with no PolyList around it.
    w.line("Begin Actor Class=Brush Name=Brush1")
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop("Location=(X=2048.000000)")
    w.line("    Begin Brush Name=Model1")
    line = w.polygon(quad, indent=7)
    w.note(line, "`t3d-polygon-outside-polylist`: `Begin Polygon` directly inside "
           "`Begin Brush`, with no `Begin PolyList`.")
    w.line("    End Brush")
    w.prop("Brush=Model'MyLevel.Model1'")
    w.prop('Name="Brush1"')
    w.line("End Actor")

    # A brush actor whose Brush= names a model that no Begin Brush defines.
    line = subtractive(w, "Brush2", "Model2", (128, 128, 128), "(X=3072.000000)",
                       "GenFloor.Floor.Flr06", reference="Model99")
    w.note(line, "`t3d-unresolved-brush-model` (an error): `Brush=Model'MyLevel.Model99'` names no "
           "brush (this actor's own is `Model2`), so the actor's `Brush` stays `None` and "
           "UnrealEd's import crashes preparing the brush it read.")

    # Two actors with the same name.
    first = None
    for light in range(2):
        line = w.line("Begin Actor Class=Light Name=Light0")
        first = first or line
        w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
        w.prop('Tag="Light"')
        w.prop("Location=(X=%d.000000,Z=64.000000)" % (256 * light))
        w.prop('Name="Light0"')
        w.line("End Actor")
    w.note(line, "`t3d-duplicate-actor-name`: a second actor named `Light0` (the first is "
           "on line %d)." % first)

    # Last, so that it cannot hide the defects above: an actor closed by the wrong End.
    begin = w.line("Begin Actor Class=PlayerStart Name=PlayerStart0")
    w.prop("Level=LevelInfo'MyLevel.LevelInfo0'")
    w.prop('Name="PlayerStart0"')
    line = w.line("End Brush")
    w.note(begin, "`t3d-unbalanced-block` (an error): the actor is never closed, because line "
           "%d has `End Brush` where `End Actor` belongs." % line)
    w.note(line, "`t3d-unbalanced-block` (a hint): the `End Brush` that closes nothing; "
           "UnrealEd skips it.")
    w.line("End Map")
    return w


def write(path, text):
    with open(os.path.join(HERE, path), "w", newline="") as f:
        f.write(text)


def main():
    write("clean/Room.t3d", clean().text())
    d = defects()
    write("defects/Defects.t3d", d.text())
    readme = [
        "# Defects.t3d: a defect for each T3D rule one map can show",
        "",
        "Every line below names a line of `Defects.t3d`, the rule that reports it there and",
        "why; `unreal-ls lint` reports exactly these (a test checks it). The map is otherwise",
        "valid, laid out as UnrealEd writes it. It is generated by `examples/generate.py`",
        "(comments inside a T3D file would be defects of their own).",
        "",
        "    unreal-ls lint examples/defects/    # exits 1: the errors below are on purpose",
        "",
    ]
    for line, text in sorted(d.notes):
        readme.append("- line %d: %s" % (line, text))
    readme += [
        "",
        "Not shown here: rules that need a file of their own (`t3d-not-t3d`, `t3d-stray-line`,",
        "`t3d-nesting-too-deep`, `t3d-duplicate-level-info`, `t3d-untitled-level`,",
        "`t3d-missing-brush-reference`), a game folder with packages or class sources",
        "(`t3d-unknown-texture`, `t3d-unknown-class`, `t3d-abstract-class`, `t3d-unknown-object`,",
        "`t3d-static-flag-cleared`, `t3d-obsolete-class`, `t3d-missing-draw-resource`,",
        "`t3d-no-player-start`),",
        "or a UE2 map (`t3d-unmatched-ai-script-tag`, `t3d-negative-extra-cost`,",
        "`t3d-zero-gravity`, `t3d-obsolete-light-effect`), and the map checks between actors",
        "(`t3d-unmatched-attach-tag`, `t3d-unmatched-teleporter-url`, `t3d-unanswered-event`,",
        "`t3d-actor-duplicated-in-place`),",
        "whose fixtures put each defect beside the look-alike that is not one. Each has its own",
        "fixture in `server/analysis/tests/rules/`.",
    ]
    write("defects/README.md", "\n".join(readme) + "\n")


if __name__ == "__main__":
    main()
