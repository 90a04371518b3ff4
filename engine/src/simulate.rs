//! Random legal games (filled in below).
