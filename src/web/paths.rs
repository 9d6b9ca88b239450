//! Paths a request names, confined to the results root: relative only, no `..`, and
//! no symbolic link leading out of the root (checked on the canonical path).

use super::http::Reply;
use std::path::{Component, Path, PathBuf};

/// The folder or file `rel` names under `root` (canonical), or the refusal.
pub fn resolve(root: &Path, rel: &str) -> Result<PathBuf, Reply> {
    if rel.starts_with(['/', '\\']) || Path::new(rel).is_absolute() || rel.contains(':') {
        return Err(Reply::error(
            400,
            &format!("{rel}: absolute paths are refused: give a path relative to the results root"),
        ));
    }
    if rel.contains('\0') {
        return Err(Reply::error(400, "a path holds no NUL byte"));
    }
    let mut path = root.to_path_buf();
    for part in rel.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                return Err(Reply::error(
                    400,
                    &format!("{rel}: .. is refused: give a path inside the results root"),
                ))
            }
            part => path.push(part),
        }
    }
    // Nothing else may slip through as a component of its own.
    if path
        .components()
        .skip(root.components().count())
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(Reply::error(
            400,
            &format!("{rel}: not a plain relative path"),
        ));
    }
    let real = path.canonicalize().map_err(|_| {
        Reply::error(
            404,
            &format!("{rel} does not exist under the results root (deleted, or never there)"),
        )
    })?;
    inside(root, &real, rel)?;
    Ok(real)
}

/// Refuses a canonical path outside the root (a symbolic link that leads out).
pub fn inside(root: &Path, real: &Path, shown: &str) -> Result<(), Reply> {
    if real.starts_with(root) {
        Ok(())
    } else {
        Err(Reply::error(
            403,
            &format!("{shown} leads outside the results root (a symbolic link): it is not served"),
        ))
    }
}

/// Refuses a folder any of whose files is a symbolic link that leads out of the
/// root (the folder itself is already checked by [`resolve`]).
pub fn files_inside(root: &Path, dir: &Path, shown: &str) -> Result<(), Reply> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.filter_map(Result::ok) {
        if !entry.file_type().is_ok_and(|t| t.is_symlink()) {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        // A dangling link reads as nothing; one that resolves must stay inside.
        if let Ok(real) = entry.path().canonicalize() {
            inside(root, &real, &format!("{shown}/{name}"))?;
        }
    }
    Ok(())
}

/// The path of `dir` relative to `root`, with `/` between its parts (for links).
pub fn relative(root: &Path, dir: &Path) -> String {
    dir.strip_prefix(root)
        .map(|p| {
            p.iter()
                .map(|c| c.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/")
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_under_the_root() {
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().join("root");
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::create_dir_all(scratch.path().join("secret")).unwrap();
        let root = root.canonicalize().unwrap();
        assert_eq!(resolve(&root, "a/b").unwrap(), root.join("a/b"));
        assert_eq!(resolve(&root, "./a//b/").unwrap(), root.join("a/b"));
        for (bad, status) in [
            ("../secret", 400),
            ("a/../../secret", 400),
            ("/etc", 400),
            ("C:/x", 400),
            ("nope", 404),
        ] {
            assert_eq!(resolve(&root, bad).unwrap_err().status, status, "{bad}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(scratch.path().join("secret"), root.join("out")).unwrap();
            assert_eq!(resolve(&root, "out").unwrap_err().status, 403);
            std::os::unix::fs::symlink(root.join("a"), root.join("in")).unwrap();
            assert_eq!(resolve(&root, "in/b").unwrap(), root.join("a/b"));
            // A file of a folder inside that links out: the folder is refused.
            assert!(files_inside(&root, &root.join("a"), "a").is_ok());
            std::fs::write(scratch.path().join("secret/games.csv"), "x").unwrap();
            std::os::unix::fs::symlink(
                scratch.path().join("secret/games.csv"),
                root.join("a/games.csv"),
            )
            .unwrap();
            let refused = files_inside(&root, &root.join("a"), "a").unwrap_err();
            assert_eq!(refused.status, 403);
            assert!(String::from_utf8_lossy(&refused.body).contains("a/games.csv"));
        }
        assert_eq!(relative(&root, &root.join("a/b")), "a/b");
    }
}
