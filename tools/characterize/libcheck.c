/* libcheck.c - see libcheck.h. */
#define _GNU_SOURCE
#include "libcheck.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GPC_LIBCHECK_TABLE_MAX ((off_t)64 << 20) /* bytes of one table read */

/* n bytes at offset at, which must lie within the file's size. */
static int gpc_libcheck_read(int fd, void *buf, size_t n, off_t at, off_t size)
{
    if (at < 0 || (off_t)n > size || at > size - (off_t)n)
        return -1;
    return pread(fd, buf, n, at) == (ssize_t)n ? 0 : -1;
}

/* The ELF header of this program: the library must match its class, byte
 * order and machine.  The fields compared sit at the same offsets in 32-
 * and 64-bit headers. */
static int gpc_libcheck_self(Elf64_Ehdr *eh)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    int ok = fd >= 0 && read(fd, eh, sizeof *eh) == (ssize_t)sizeof *eh;
    if (fd >= 0)
        close(fd);
    return ok ? 0 : -1;
}

/* 1 when the dynamic symbol table defines name (a global or weak symbol
 * with a section), 0 when it does not, -1 when there is no readable one. */
static int gpc_libcheck_symbol(int fd, const Elf64_Ehdr *eh, off_t size, const char *name)
{
    Elf64_Shdr *sh = NULL;
    Elf64_Sym *syms = NULL;
    char *strs = NULL;
    size_t i, j, n = eh->e_shnum;
    int rc = -1;
    if (eh->e_shentsize != sizeof *sh || n == 0 || !(sh = calloc(n, sizeof *sh)) ||
        gpc_libcheck_read(fd, sh, n * sizeof *sh, (off_t)eh->e_shoff, size) < 0)
        goto out;
    for (i = 0; i < n && rc < 1; i++) {
        const Elf64_Shdr *st;
        size_t nsym;
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= n)
            continue;
        st = &sh[sh[i].sh_link];
        if (st->sh_type != SHT_STRTAB || (off_t)sh[i].sh_size > GPC_LIBCHECK_TABLE_MAX ||
            (off_t)st->sh_size > GPC_LIBCHECK_TABLE_MAX || st->sh_size == 0)
            continue;
        nsym = sh[i].sh_size / sizeof *syms;
        free(syms);
        free(strs);
        syms = malloc(nsym * sizeof *syms + 1);
        strs = malloc(st->sh_size + 1);
        if (!syms || !strs ||
            gpc_libcheck_read(fd, syms, nsym * sizeof *syms, (off_t)sh[i].sh_offset, size) < 0 ||
            gpc_libcheck_read(fd, strs, st->sh_size, (off_t)st->sh_offset, size) < 0)
            continue;
        strs[st->sh_size] = 0;
        rc = 0;
        for (j = 0; j < nsym; j++) {
            int bind = ELF64_ST_BIND(syms[j].st_info);
            if (syms[j].st_name < st->sh_size && syms[j].st_shndx != SHN_UNDEF &&
                (bind == STB_GLOBAL || bind == STB_WEAK) &&
                strcmp(strs + syms[j].st_name, name) == 0) {
                rc = 1;
                break;
            }
        }
    }
out:
    free(sh);
    free(syms);
    free(strs);
    return rc;
}

/* The library's own checks, on an open descriptor of a regular file. */
static int gpc_libcheck_elf(int fd, off_t size, const char *lib, char *err, size_t errlen)
{
    Elf64_Ehdr eh, self;
    int sym;
    if (gpc_libcheck_read(fd, &eh, sizeof eh, 0, size) < 0 ||
        memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
        snprintf(err, errlen, "the profiler library %s is not an ELF file", lib);
        return -1;
    }
    if (gpc_libcheck_self(&self) < 0 || eh.e_ident[EI_CLASS] != self.e_ident[EI_CLASS] ||
        eh.e_ident[EI_DATA] != self.e_ident[EI_DATA] || eh.e_machine != self.e_machine ||
        eh.e_ident[EI_CLASS] != ELFCLASS64) {
        snprintf(err, errlen,
                 "the profiler library %s is built for another machine (its ELF class, byte "
                 "order or architecture is not this program's)",
                 lib);
        return -1;
    }
    if (eh.e_type != ET_DYN) {
        snprintf(err, errlen, "the profiler library %s is not a shared library (ELF type %u)", lib,
                 (unsigned)eh.e_type);
        return -1;
    }
    sym = gpc_libcheck_symbol(fd, &eh, size, GPC_LIBCHECK_SYMBOL);
    if (sym < 0) {
        snprintf(err, errlen, "the profiler library %s has no readable dynamic symbol table", lib);
        return -1;
    }
    if (sym == 0) {
        snprintf(err, errlen,
                 "%s does not define " GPC_LIBCHECK_SYMBOL ": it is not gpuprof's profiler "
                 "library (libgpuprof.so)",
                 lib);
        return -1;
    }
    return 0;
}

/* libgpuprof.so loads the profiler from its own directory. */
static int gpc_libcheck_core(const char *lib, char *err, size_t errlen)
{
    const char *slash = strrchr(lib, '/'), *base = slash ? slash + 1 : lib;
    char *core = NULL;
    struct stat st;
    int rc = 0;
    if (strcmp(base, GPC_LIBCHECK_CORE) == 0)
        return 0;
    if (asprintf(&core, "%.*s" GPC_LIBCHECK_CORE, (int)(base - lib), lib) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (stat(core, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen,
                 "%s is not next to the profiler library %s (it loads the profiler from its "
                 "own directory)",
                 core, lib);
        rc = -1;
    }
    free(core);
    return rc;
}

int gpc_libcheck(const char *lib, char *err, size_t errlen)
{
    struct stat st;
    int fd, rc;
    if (strpbrk(lib, " \t\n:")) {
        snprintf(err, errlen,
                 "the profiler library's path '%s' holds a space, tab, newline or colon, where "
                 "the dynamic loader splits LD_PRELOAD (the programs would run unprofiled): use "
                 "a path without them, e.g. a symbolic link, with --lib",
                 lib);
        return -1;
    }
    /* stat first: a FIFO is never opened */
    if (stat(lib, &st) < 0) {
        snprintf(err, errlen, "cannot read the profiler library %s: %s", lib, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "the profiler library %s is not a regular file%s", lib,
                 S_ISDIR(st.st_mode) ? " (a directory)" : "");
        return -1;
    }
    if ((fd = open(lib, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot read the profiler library %s: %s", lib, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "the profiler library %s is not a regular file", lib);
        rc = -1;
    } else {
        rc = gpc_libcheck_elf(fd, st.st_size, lib, err, errlen);
    }
    close(fd);
    return rc < 0 ? -1 : gpc_libcheck_core(lib, err, errlen);
}
