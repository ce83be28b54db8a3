//! fuda (札): a card-text scripting language and compiler for trading card games.
//!
//! The compiler is a pipeline of phases, each in its own module:
//! [`lex`] → [`parse`] → [`ast`] → [`resolve`] → [`ir`]. See `ARCHITECTURE.md`.

pub mod ast;
pub mod diagnostic;
pub mod lex;
pub mod parse;
pub mod source;
pub mod ir;
pub mod normalize;
pub mod resolve;
pub mod explain;
pub mod pack;
pub mod cache;
