//! Packs: what turns folders on disk (or the games embedded in the binary) into compiled packs
//! and checked decks. `manifest` reads a pack's files, `session` compiles packs in dependency
//! order through the compiler, `cache` stores compiled packs by content hash, `deck` reads and
//! checks `.deck` files against a game's cards, `template` scaffolds a new pack (`fuda new pack`).

pub mod cache;
pub mod deck;
pub mod manifest;
pub mod session;
pub mod template;

pub use manifest::{Manifest, PackSource};
pub use session::Session;
