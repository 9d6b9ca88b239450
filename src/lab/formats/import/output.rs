//! Where an import's folder is written: refused over its own inputs, and written
//! through the one write path.

use super::*;

/// Refuses to replace a folder that holds one of the files being imported.
pub(super) fn check_inputs_outside(out: &Path, files: &[PathBuf], force: bool) -> Result<()> {
    let Ok(folder) = fs::canonicalize(out) else {
        return Ok(());
    };
    if !force {
        return Ok(());
    }
    for file in files {
        if fs::canonicalize(file).is_ok_and(|f| f.starts_with(&folder)) {
            return Err(Error::said(
                Said::text(format!(
                    "{} is inside {}, which ",
                    file.display(),
                    out.display()
                ))
                .name(&FORCE)
                .then(" would replace: move it out first, or choose another ")
                .name(&OUT),
            ));
        }
    }
    Ok(())
}

/// Makes the results folder `out` holding `files` (each written whole), as `run` makes
/// one: an existing folder is refused unless `force`, which moves it aside until the
/// new one is written; the folder is locked while it is written, and a failure leaves
/// nothing of the new folder behind (and puts a replaced one back).
pub(super) fn write_folder(out: &Path, force: bool, files: &[(&str, Vec<u8>)]) -> Result<()> {
    let exists = || {
        Error::said(
            Said::text(format!("results folder {} already exists: ", out.display()))
                .name(&FORCE)
                .then(" replaces it, or ")
                .placeholder(&OUT, "DIR")
                .then(" writes elsewhere"),
        )
    };
    let aside = match (out.exists(), force) {
        (true, true) => Some(move_aside(out)?),
        (true, false) => return Err(exists()),
        (false, _) => None,
    };
    let put_back = || {
        if let Some(aside) = &aside {
            let _ = fs::rename(aside, out);
        }
    };
    let cannot = |e: std::io::Error| cannot_create_folder(out, &e);
    let created = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or(Ok(()), fs::create_dir_all)
        .and_then(|()| fs::create_dir(out));
    if let Err(e) = created {
        put_back();
        return Err(if e.kind() == std::io::ErrorKind::AlreadyExists {
            exists()
        } else {
            cannot(e)
        });
    }
    let written = FolderLock::acquire(out).and_then(|lock| {
        for (name, bytes) in files {
            write_atomically(&out.join(name), bytes)?;
        }
        Ok(lock)
    });
    match written {
        Ok(lock) => {
            drop(lock);
            if let Some(aside) = &aside {
                remove_aside(aside)?;
            }
            Ok(())
        }
        Err(error) => {
            let _ = fs::remove_dir_all(out);
            put_back();
            Err(error)
        }
    }
}
