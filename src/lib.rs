//! fuda (札): a card-text scripting language and compiler for trading card games.
//!
//! The compiler is a pipeline of phases, each in its own module:
//! [`lex`] → [`parse`] → [`ast`] → [`resolve`] → [`ir`]. See `ARCHITECTURE.md`.

pub mod ast;
pub mod cache;
pub mod deck;
pub mod diagnostic;
pub mod engine;
pub mod explain;
pub mod ir;
pub mod lex;
pub mod normalize;
pub mod pack;
pub mod parse;
pub mod play;
pub mod resolve;
pub mod runner;
pub mod scenario;
pub mod sim;
pub mod source;
