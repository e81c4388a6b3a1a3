//! The entry point that both `unreal-ls lint` and the language server's diagnostics call.
