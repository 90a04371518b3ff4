//! Importers from other programs' game records.

pub mod tarotclub;
