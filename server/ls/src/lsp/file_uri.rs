//! The path a URI names on this machine, for every place the server reads a file a client
//! names: only `file:` URIs are files. The protocol library's `to_file_path` takes the path
//! of any URI, so an `untitled:Untitled-1` buffer read as the file `Untitled-1` in the
//! server's folder and `http://host/etc/passwd` as `/etc/passwd`. On Windows its mapping is
//! wrong too (`file://server/share/x` became `server:\share\x`, `file://localhost/C:/x` and
//! `file:///x` no path with a drive), so there [`windows_path`] maps the URI.

use std::path::PathBuf;

use tower_lsp_server::ls_types::Uri;

/// The local path of a `file:` URI (any case of the scheme); `None` for any other scheme,
/// and, off Windows, for a host other than `localhost` (a file on another machine; on
/// Windows `file://server/share` is a UNC path, see [`windows_path`]).
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let host = uri.authority().map(|a| a.host().to_owned()).unwrap_or_default();
    if cfg!(windows) {
        let path = uri.path().decode().to_string_lossy();
        return windows_path(&host, &path).map(PathBuf::from);
    }
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return None;
    }
    uri.to_file_path().map(std::borrow::Cow::into_owned)
}

/// The Windows path of a `file:` URI from its host and its percent-decoded path, as Windows
/// clients write them: `file:///C:/Maps/A.t3d` (VS Code sends `file:///c%3A/Maps/A.t3d`,
/// which decodes to the same) is `C:\Maps\A.t3d`, the drive letter upper-cased as Windows
/// prints it; `file://localhost/C:/x` is `C:\x`; `file://server/share/x` is the UNC path
/// `\\server\share\x`. A path with neither a drive nor a server (`file:///Maps/A.t3d`) would be
/// read on whatever drive the server was started from: `None`, as is a NUL in the path.
/// Platform-independent, so its tests run everywhere; used on Windows.
pub fn windows_path(host: &str, path: &str) -> Option<String> {
    if path.contains('\0') {
        return None;
    }
    if host.is_empty() || host.eq_ignore_ascii_case("localhost") {
        let rest = path.strip_prefix('/')?;
        let bytes = rest.as_bytes();
        let drive = *bytes.first()?;
        if !drive.is_ascii_alphabetic() || bytes.get(1) != Some(&b':') {
            return None;
        }
        let tail = &rest[2..];
        if !(tail.is_empty() || tail.starts_with('/') || tail.starts_with('\\')) {
            return None;
        }
        let tail = if tail.is_empty() { "\\".to_owned() } else { tail.replace('/', "\\") };
        return Some(format!("{}:{tail}", drive.to_ascii_uppercase() as char));
    }
    // A UNC path needs a share after the server.
    let share = path.trim_start_matches('/');
    if share.is_empty() {
        return None;
    }
    Some(format!("\\\\{host}\\{}", share.replace('/', "\\")))
}

#[cfg(test)]
mod tests {
    use super::{file_path, windows_path};
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

    /// What `file_path` gives on Windows (the same function, whatever the build's system).
    fn on_windows(uri: &str) -> Option<String> {
        let uri = Uri::from_str(uri).unwrap();
        let host = uri.authority().map(|a| a.host().to_owned()).unwrap_or_default();
        windows_path(&host, &uri.path().decode().to_string_lossy())
    }

    #[test]
    fn windows_uris_are_drive_and_unc_paths() {
        let cases = [
            ("file:///C:/Maps/A.t3d", Some(r"C:\Maps\A.t3d")),
            // VS Code on Windows: a lower-case drive and its colon percent-encoded.
            ("file:///c%3A/Maps/A.t3d", Some(r"C:\Maps\A.t3d")),
            ("file:///c%3a/My%20Maps/DM-%C3%A9.t3d", Some(r"C:\My Maps\DM-é.t3d")),
            ("file:///Z:/W/ex/Defects.t3d", Some(r"Z:\W\ex\Defects.t3d")),
            ("file:///d:", Some(r"D:\")),
            ("file:///D:/", Some(r"D:\")),
            ("file://localhost/C:/x.uc", Some(r"C:\x.uc")),
            ("file://server/share/Maps/A.t3d", Some(r"\\server\share\Maps\A.t3d")),
            ("file://server/", None),
            // No drive: which drive would be the server's guess.
            ("file:///Maps/A.t3d", None),
            ("file:///CC:/x", None),
            ("file:///C:x", None),
            ("file:///C:/a%00b", None),
        ];
        for (uri, expected) in cases {
            assert_eq!(on_windows(uri).as_deref(), expected, "{uri}");
        }
    }
}
