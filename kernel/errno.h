/*
 * Error numbers, returned negated (-ENOENT) as Linux does, so a caller
 * tests `err < 0` and a message can name the error.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#define ENOENT		2
#define EIO		5
#define ENOMEM		12
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define ENOTDIR		20
#define EISDIR		21
#define EINVAL		22
#define ENAMETOOLONG	36
#define ENOTEMPTY	39

/* A short description of a negated error, for console messages. */
static inline const char *errno_name(int err)
{
	switch (-err) {
	case ENOENT:		return "no such entry";
	case ENOMEM:		return "out of memory";
	case EEXIST:		return "already exists";
	case ENOTDIR:		return "not a directory";
	case EISDIR:		return "is a directory";
	case EINVAL:		return "invalid argument";
	case EBUSY:		return "busy";
	case ENODEV:		return "no such device";
	case EIO:		return "input/output error";
	case ENAMETOOLONG:	return "name too long";
	case ENOTEMPTY:		return "directory not empty";
	}
	return "unknown error";
}

#endif
