//! The path a URI names on this machine, for every place the server reads a file a client
//! names: only `file:` URIs are files. The protocol library's `to_file_path` takes the path
//! of any URI, so an `untitled:Untitled-1` buffer read as the file `Untitled-1` in the
//! server's folder and `http://host/etc/passwd` as `/etc/passwd`.

use std::path::PathBuf;

use tower_lsp_server::ls_types::Uri;

/// The local path of a `file:` URI (any case of the scheme); `None` for any other scheme,
/// and, off Windows, for a host other than `localhost` (a file on another machine; on
/// Windows `file://server/share` is a UNC path, which the library maps).
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    if !cfg!(windows) {
        let host = uri.authority().map(|a| a.host().to_owned()).unwrap_or_default();
        if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
            return None;
        }
    }
    uri.to_file_path().map(std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::file_path;
    use std::str::FromStr;
    use tower_lsp_server::ls_types::Uri;

    fn path(uri: &str) -> Option<String> {
        file_path(&Uri::from_str(uri).unwrap()).map(|p| p.to_string_lossy().into_owned())
    }

    #[test]
    fn only_file_uris_are_files() {
        assert_eq!(path("untitled:Untitled-1"), None);
        assert_eq!(path("http://example.com/etc/passwd"), None);
        assert_eq!(path("vscode-notebook-cell:/a/b.t3d"), None);
        if !cfg!(windows) {
            assert_eq!(path("file:///work/maps/A.t3d").as_deref(), Some("/work/maps/A.t3d"));
            assert_eq!(path("FILE:///work/maps/A.t3d").as_deref(), Some("/work/maps/A.t3d"));
            assert_eq!(path("file://localhost/work/A.t3d").as_deref(), Some("/work/A.t3d"));
            assert_eq!(path("file://elsewhere/work/A.t3d"), None);
            assert_eq!(
                path("file:///work/My%20Maps/A.t3d").as_deref(),
                Some("/work/My Maps/A.t3d")
            );
        }
    }
}
