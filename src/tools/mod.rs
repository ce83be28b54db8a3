//! The tools built on the layers below: the scenario format (`scenario`) and the runner that plays
//! scenarios on the engine (`runner`), many seeded games with a summary (`sim`), and a game in the
//! terminal (`play`), every name a game declares (`words`), printed card text (`render`), card
//! proofs as SVG (`proof`), the language server for editors (`lsp`). The command line calls them.

pub mod lsp;
pub mod play;
pub mod proof;
pub mod render;
pub mod runner;
pub mod scenario;
pub mod sim;
pub mod words;
