/* cubin.c - see cubin.h.  Reads the section headers, the symbol table and its
 * string table; every bound check is against the image size, since the image
 * comes from the program. */
#include "preload/cubin.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

static int in_image(size_t size, uint64_t off, uint64_t len)
{
    return off <= size && len <= size - off;
}

static const char *str_at(const uint8_t *img, size_t size, const Elf64_Shdr *strtab, uint32_t off)
{
    if (off >= strtab->sh_size || !in_image(size, strtab->sh_offset, strtab->sh_size))
        return NULL;
    const char *s = (const char *)img + strtab->sh_offset + off;
    if (!memchr(s, '\0', strtab->sh_size - off))
        return NULL;
    return s;
}

/* Checks the ELF header and returns a copy of the section table (NULL if the
 * image is not a well-formed 64-bit ELF; the caller frees it).  A copy, since
 * the table need not be aligned: images a library builds at run time (cuBLAS's
 * nvjet kernels) pack their sections at odd offsets. */
static Elf64_Shdr *elf_sections(const uint8_t *img, size_t size, Elf64_Ehdr *eh)
{
    if (!img || size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) != 0 ||
        img[EI_CLASS] != ELFCLASS64)
        return NULL;
    memcpy(eh, img, sizeof(*eh));
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
        !in_image(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) ||
        eh->e_shstrndx >= eh->e_shnum)
        return NULL;
    Elf64_Shdr *sh = malloc((size_t)eh->e_shnum * sizeof(Elf64_Shdr));
    if (sh)
        memcpy(sh, img + eh->e_shoff, (size_t)eh->e_shnum * sizeof(Elf64_Shdr));
    return sh;
}

int gp_cubin_globals(const void *image, size_t size, gp_cubin_global **out)
{
    const uint8_t *img = image;
    Elf64_Ehdr eh;
    *out = NULL;
    Elf64_Shdr *sh = elf_sections(img, size, &eh);
    if (!sh)
        return -1;
    const Elf64_Shdr *shstr = &sh[eh.e_shstrndx];
    int count = 0, cap = 0;
    gp_cubin_global *g = NULL;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_entsize != sizeof(Elf64_Sym) ||
            sh[i].sh_link >= eh.e_shnum || !in_image(size, sh[i].sh_offset, sh[i].sh_size))
            continue;
        const Elf64_Shdr *strtab = &sh[sh[i].sh_link];
        size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 0; k < nsym; k++) {
            Elf64_Sym sym;
            memcpy(&sym, img + sh[i].sh_offset + k * sizeof(Elf64_Sym), sizeof(sym));
            if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_size == 0 ||
                sym.st_shndx == SHN_UNDEF || sym.st_shndx >= eh.e_shnum)
                continue;
            const char *sec = str_at(img, size, shstr, sh[sym.st_shndx].sh_name);
            if (!sec || strncmp(sec, ".nv.global", 10) != 0)
                continue;
            const char *name = str_at(img, size, strtab, sym.st_name);
            if (!name || !*name)
                continue;
            if (count == cap) {
                cap = cap ? cap * 2 : 8;
                gp_cubin_global *ng = realloc(g, (size_t)cap * sizeof(*g));
                if (!ng)
                    break;
                g = ng;
            }
            g[count].name = strdup(name);
            if (!g[count].name)
                break;
            g[count].size = sym.st_size;
            count++;
        }
    }
    free(sh);
    *out = g;
    return count;
}

void gp_cubin_globals_free(gp_cubin_global *g, int n)
{
    for (int i = 0; i < n; i++)
        free(g[i].name);
    free(g);
}

int gp_cubin_each_function(const void *image, size_t size, gp_cubin_function_fn fn, void *arg)
{
    Elf64_Ehdr eh;
    const uint8_t *img = image;
    Elf64_Shdr *sh = elf_sections(img, size, &eh);
    if (!sh)
        return -1;
    int n = 0;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        const char *sec = str_at(img, size, &sh[eh.e_shstrndx], sh[i].sh_name);
        if (!sec || strncmp(sec, ".text.", 6) != 0 || sh[i].sh_type != SHT_PROGBITS ||
            !in_image(size, sh[i].sh_offset, sh[i].sh_size))
            continue;
        fn(sec + 6, img + sh[i].sh_offset, (size_t)sh[i].sh_size, arg);
        n++;
    }
    free(sh);
    return n;
}

int gp_cubin_each_function_any(const void *image, size_t size, gp_cubin_function_fn fn, void *arg)
{
    int n = gp_cubin_each_function(image, size, fn, arg);
    if (n >= 0)
        return n;
    const uint8_t *img = image;
    int total = -1;
    for (size_t off = 8; off + 64 <= size; off += 8) {
        if (memcmp(img + off, "\x7f" "ELF", 4) != 0)
            continue;
        int k = gp_cubin_each_function(img + off, size - off, fn, arg);
        if (k > 0)
            total = (total < 0 ? 0 : total) + k;
    }
    return total;
}

/* The bytes an ELF image spans: its headers, section table and sections. */
static size_t elf_extent(const uint8_t *img, size_t size)
{
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = elf_sections(img, size, &eh);
    if (!sh)
        return 0;
    uint64_t end = eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr);
    if (eh.e_phoff && in_image(size, eh.e_phoff, (uint64_t)eh.e_phnum * eh.e_phentsize) &&
        eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > end)
        end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_type != SHT_NOBITS && in_image(size, sh[i].sh_offset, sh[i].sh_size) &&
            sh[i].sh_offset + sh[i].sh_size > end)
            end = sh[i].sh_offset + sh[i].sh_size;
    free(sh);
    return end <= size ? (size_t)end : 0;
}

int gp_cubin_each_elf(const void *image, size_t size, gp_cubin_elf_fn fn, void *arg)
{
    const uint8_t *img = image;
    size_t whole = img ? elf_extent(img, size) : 0;
    if (whole) {
        fn(img, whole, arg);
        return 1;
    }
    int n = 0;
    for (size_t off = 8; img && off + 64 <= size; off += 8) {
        if (memcmp(img + off, "\x7f" "ELF", 4) != 0)
            continue;
        size_t ext = elf_extent(img + off, size - off);
        if (!ext)
            continue;
        fn(img + off, ext, arg);
        n++;
        off += (ext - 1) & ~(size_t)7; /* past this one, still 8-byte aligned */
    }
    return n;
}

int gp_cubin_has_section(const void *image, size_t size, const char *name)
{
    Elf64_Ehdr eh;
    const uint8_t *img = image;
    Elf64_Shdr *sh = elf_sections(img, size, &eh);
    if (!sh)
        return 0;
    int found = 0;
    for (unsigned i = 0; i < eh.e_shnum && !found; i++) {
        const char *sec = str_at(img, size, &sh[eh.e_shstrndx], sh[i].sh_name);
        found = sec && strcmp(sec, name) == 0 && sh[i].sh_size > 0;
    }
    free(sh);
    return found;
}

int gp_cubin_sm(const void *image, size_t size)
{
    const uint8_t *img = image;
    Elf64_Ehdr eh;
    if (!img || size < sizeof(eh) || memcmp(img, ELFMAG, SELFMAG) != 0 ||
        img[EI_CLASS] != ELFCLASS64)
        return 0;
    memcpy(&eh, img, sizeof(eh));
    /* CUDA's ELF ABI version 8 (CUDA 12 on) moved the SM number to bits 8-15 */
    return (int)(img[EI_ABIVERSION] >= 8 ? (eh.e_flags >> 8) & 0xff : eh.e_flags & 0xff);
}
