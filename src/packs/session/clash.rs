//! Names two loaded packs both declare: packs of one game that do not require each other
//! each declaring the same counter, verb, keyword… Within one pack, and across `requires`, the
//! compiler reports it (`fuda::resolve::duplicate_declaration`); between sibling packs only the
//! session, once every pack is loaded, can.

use super::Session;
use crate::base::diagnostic::{codes, Diagnostic, Label};
use crate::compiler::resolve::symbols::Origin;

/// One clash: the namespace and name, the pack declaring it first and where, the second.
struct Clash {
    ns: String,
    name: String,
    first: (String, Origin),
    second: (String, Origin),
}

impl Session {
    /// Reports each name two loaded packs of one game both declare when neither requires the
    /// other (primary label at the second pack's declaration, related at the first), and
    /// unloads the second pack and every pack requiring it: nothing of a pack with a clash is
    /// loaded. Reports each clash once however often it runs.
    pub(crate) fn check_name_clashes(&mut self) {
        let mut clashes = Vec::new();
        for (b, second) in self.packs.iter().enumerate() {
            for first in &self.packs[..b] {
                if first.pack.game != second.pack.game {
                    continue;
                }
                for (key, at) in &second.symbols.origins {
                    // A pack requiring the other inherits its declarations: the same origin.
                    let Some(prev) = first.symbols.origins.get(key) else {
                        continue;
                    };
                    if prev.file != at.file || prev.span != at.span {
                        clashes.push(Clash {
                            ns: key.0.clone(),
                            name: key.1.clone(),
                            first: (first.pack.name.clone(), *prev),
                            second: (second.pack.name.clone(), *at),
                        });
                    }
                }
            }
        }
        if clashes.is_empty() {
            return;
        }
        clashes.sort_by_key(|c| (c.second.1.file.0, c.second.1.span.start, c.ns.clone()));
        let mut unload = Vec::new();
        for c in clashes {
            let d = Diagnostic::error(
                codes::PACK_NAME_CLASH,
                c.second.1.file,
                c.second.1.span,
                format!(
                    "{} `{}` is declared by both `{}` and `{}`",
                    c.ns, c.name, c.first.0, c.second.0
                ),
                format!("declared by `{}` here", c.second.0),
            )
            .with_related(Label::new(
                c.first.1.file,
                c.first.1.span,
                format!("declared by `{}` here", c.first.0),
            ))
            .with_help(format!(
                "rename one of the two, or make `{}` require `{}` and use its declaration",
                c.second.0, c.first.0
            ));
            if !self.diags.contains(&d) {
                self.diags.push(d);
            }
            unload.push(c.second.0);
        }
        self.unload(unload);
    }

    /// Takes the packs named, and every pack requiring one of them, out of the session.
    fn unload(&mut self, mut names: Vec<String>) {
        loop {
            let before = names.len();
            for p in &self.packs {
                if !names.contains(&p.pack.name)
                    && p.pack.requires.iter().any(|r| names.contains(r))
                {
                    names.push(p.pack.name.clone());
                }
            }
            if names.len() == before {
                break;
            }
        }
        let keep: Vec<bool> = self
            .packs
            .iter()
            .map(|p| !names.contains(&p.pack.name))
            .collect();
        let mut flags = keep.iter();
        self.packs.retain(|_| flags.next().copied().unwrap_or(true));
        let mut flags = keep.iter();
        self.keys.retain(|_| flags.next().copied().unwrap_or(true));
        let mut flags = keep.iter();
        self.homes.retain(|_| flags.next().copied().unwrap_or(true));
        for n in names {
            if !self.rejected.contains(&n) {
                self.rejected.push(n);
            }
        }
    }
}
