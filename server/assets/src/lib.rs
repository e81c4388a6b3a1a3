//! The asset pipeline of unreal-ls: what reads a package, a mesh or a map to show or write
//! it, beside the lint and IDE core (`unreal-analysis`) that it builds on. Exports
//! (textures as PNG, sources, meshes and maps as glTF or OBJ), the previews and pictures
//! (`render`, thumbnails of meshes and levels, the package browser), the level that
//! UnrealEd's CSG builds from a map's brushes, and the comparison of two versions of a map.
//! Plain data, as the core: the CLI and the language server write it out.

pub mod csg;
pub mod diff;
pub mod exec_lines;
pub mod export;
pub mod object_select;
pub mod package;
pub mod preview;
