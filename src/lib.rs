//! fuda (札): a card-text scripting language and compiler for trading card games.
//!
//! The source tree shows the layers, each using only those listed before it (see
//! `ARCHITECTURE.md`; `tests/layering.rs` enforces it):
//! - [`base`]: source files and diagnostics, shared by all;
//! - [`ir`]: the typed effect IR, and what reads only the IR (name normalization, the outline);
//! - [`compiler`]: [`compiler::lex`] → [`compiler::parse`] → [`compiler::ast`] →
//!   [`compiler::resolve`], text to IR;
//! - [`engine`]: the game-agnostic interpreter of the IR (uses only `ir` and `base`);
//! - [`packs`]: pack folders, the compiling session, the compiled-pack cache, decks;
//! - [`tools`]: scenarios and their runner, `sim`, `play`.

pub mod base;
pub mod compiler;
pub mod engine;
pub mod ir;
pub mod packs;
pub mod tools;
