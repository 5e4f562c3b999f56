/* source_text.c - see source_text.h. */
#include "metrics/instructions/source_text.h"

#include <stdlib.h>
#include <string.h>

const char *gp_source_text_line(const gp_source *s, int file, long line)
{
    if (!s || file < 0 || (size_t)file >= s->n_files || line < 1 || line > s->files[file].n_lines)
        return NULL;
    return s->files[file].lines[line - 1];
}

void gp_source_text_set_file(gp_source *s, int file, char *text, size_t len, const char *why)
{
    gp_source_file *sf;
    size_t i, n = 1;
    if (!s || file < 0 || (size_t)file >= s->n_files) {
        free(text);
        return;
    }
    sf = &s->files[file];
    free(sf->text);
    free(sf->lines);
    free(sf->text_why);
    sf->text = NULL;
    sf->lines = NULL;
    sf->n_lines = 0;
    sf->text_why = NULL;
    if (!text) {
        sf->text_why = gp_source_dup(why ? why : "not read");
        return;
    }
    for (i = 0; i < len; i++)
        n += text[i] == '\n';
    if (!(sf->lines = malloc(n * sizeof *sf->lines))) {
        free(text);
        sf->text_why = gp_source_dup("out of memory");
        return;
    }
    sf->text = text;
    sf->lines[sf->n_lines++] = text;
    for (i = 0; i < len; i++)
        if (text[i] == '\n') {
            text[i] = 0;
            if (i > 0 && text[i - 1] == '\r')
                text[i - 1] = 0;
            if (i + 1 < len)
                sf->lines[sf->n_lines++] = text + i + 1;
        }
}

int gp_source_text_set_sass(gp_source_func *f, long pc, const char *text)
{
    long i = pc / 16;
    size_t n = strlen(text);
    char *t;
    /* text only for the code the record holds: its table is as long as
     * that code, never as long as code_bytes alone claims (2^40) */
    if (!f->code || pc < 0 || pc % 16 || pc >= f->code_bytes)
        return -1;
    if (!f->sass) {
        f->n_sass = f->code_bytes / 16;
        if (!(f->sass = calloc((size_t)f->n_sass, sizeof *f->sass)))
            return -1;
    }
    if (i >= f->n_sass || !(t = malloc((n > 200 ? 200 : n) + 1)))
        return -1;
    memcpy(t, text, n > 200 ? 200 : n);
    t[n > 200 ? 200 : n] = 0;
    free(f->sass[i]);
    f->sass[i] = t;
    return 0;
}

const char *gp_source_text_sass(const gp_source_func *f, long pc)
{
    if (!f->sass || pc < 0 || pc % 16 || pc / 16 >= f->n_sass)
        return NULL;
    return f->sass[pc / 16];
}

void gp_source_text_set_sass_why(gp_source_func *f, const char *why)
{
    free(f->sass_why);
    f->sass_why = gp_source_dup(why);
}
