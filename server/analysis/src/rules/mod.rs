//! Diagnostic rules, one module per rule, registered in one place.

use crate::lint::LintOptions;
use crate::Diagnostic;

/// Every T3D rule over one document, sorted by position.
pub fn check_t3d(_text: &str, _options: &LintOptions) -> Vec<Diagnostic> {
    Vec::new()
}
