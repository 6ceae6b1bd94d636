// js/cli/errno.js: a system error as the native tool words it (strerror's text on glibc), not Node's
// "ENOENT: no such file or directory, open 'f.cf'", so that both tools print the same message.

const kStrerror = {
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  EDQUOT: 'Disk quota exceeded',
  EEXIST: 'File exists',
  EIO: 'Input/output error',
  EISDIR: 'Is a directory',
  ELOOP: 'Too many levels of symbolic links',
  EMFILE: 'Too many open files',
  ENAMETOOLONG: 'File name too long',
  ENOENT: 'No such file or directory',
  ENOSPC: 'No space left on device',
  ENOTDIR: 'Not a directory',
  EPERM: 'Operation not permitted',
  EROFS: 'Read-only file system',
  ETXTBSY: 'Text file busy',
  EXDEV: 'Invalid cross-device link',
};

// The reason in a Node system error (from fs), without its code and the call's arguments.
export function systemMessage(error) {
  const text = kStrerror[error?.code];
  if (text !== undefined) return text;
  const message = String(error?.message ?? error);
  return error?.syscall === undefined ? message : message.replace(/^[A-Z0-9]+: /, '').replace(/, \w+ '.*$/s, '');
}
