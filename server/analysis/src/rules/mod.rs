//! Diagnostic rules, one module per rule, registered in one place.
