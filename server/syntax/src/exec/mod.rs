//! `#exec` directives in UnrealScript sources (filled in by the `#exec` issue).
