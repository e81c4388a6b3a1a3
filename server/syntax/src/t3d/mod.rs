//! T3D: UnrealEd's text export of maps, brushes and actors.
