//! Phrase templates: how a declared name reads in printed card text (`reads en "…"`), split
//! into plain text and holes. The checker (`compiler::resolve`) checks the holes; the renderer
//! (`ir::render`) fills them. A template is only text and holes, so a printed text can also be
//! matched against it in the other direction.

/// A piece of a phrase template.
#[derive(Debug, PartialEq)]
pub enum Piece<'t> {
    /// Plain text.
    Text(&'t str),
    /// `{name}` or `{name:modifier}`, at `range` (bytes of the template).
    Hole {
        /// The name.
        name: &'t str,
        /// The modifier after `:`.
        plural: Option<&'t str>,
        /// Where it is in the template.
        range: (usize, usize),
    },
    /// A `{` never closed.
    Unclosed {
        /// Where it is.
        range: (usize, usize),
    },
    /// A `}` with no `{`.
    Stray {
        /// Where it is.
        range: (usize, usize),
    },
}

/// Splits a template into text and holes.
pub fn template_pieces(t: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = 0;
    let mut i = 0;
    while i < t.len() {
        let b = t.as_bytes()[i];
        if b == b'{' {
            if rest < i {
                out.push(Piece::Text(&t[rest..i]));
            }
            match t[i..].find('}') {
                Some(len) => {
                    let inner = &t[i + 1..i + len];
                    let (name, plural) = match inner.split_once(':') {
                        Some((n, m)) => (n, Some(m)),
                        None => (inner, None),
                    };
                    out.push(Piece::Hole {
                        name,
                        plural,
                        range: (i, i + len + 1),
                    });
                    i += len + 1;
                }
                None => {
                    out.push(Piece::Unclosed { range: (i, i + 1) });
                    i = t.len();
                }
            }
            rest = i;
        } else if b == b'}' {
            if rest < i {
                out.push(Piece::Text(&t[rest..i]));
            }
            out.push(Piece::Stray { range: (i, i + 1) });
            i += 1;
            rest = i;
        } else {
            i += 1;
        }
    }
    if rest < t.len() {
        out.push(Piece::Text(&t[rest..]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_a_template() {
        assert_eq!(
            template_pieces("draw {n} card{n:s}"),
            vec![
                Piece::Text("draw "),
                Piece::Hole {
                    name: "n",
                    plural: None,
                    range: (5, 8)
                },
                Piece::Text(" card"),
                Piece::Hole {
                    name: "n",
                    plural: Some("s"),
                    range: (13, 18)
                },
            ]
        );
        assert_eq!(
            template_pieces("a } b {c"),
            vec![
                Piece::Text("a "),
                Piece::Stray { range: (2, 3) },
                Piece::Text(" b "),
                Piece::Unclosed { range: (6, 7) },
            ]
        );
    }
}
