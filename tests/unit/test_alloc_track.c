/* test_alloc_track.c - allocation tracking: range lookup, frees, host writes,
 * per-context collection, many entries. */
#include "replay/alloc_track.h"
#include "tests/unit/gp_test.h"

#include <stdlib.h>

int main(void)
{
    gp_alloc_table *t = gp_alloc_table_create();
    gp_range r;
    GP_CHECK(t != NULL);
    GP_CHECK(gp_alloc_add(t, 0x1000, 0x100, GP_MEM_DEVICE, 1) == 0);
    GP_CHECK(gp_alloc_add(t, 0x3000, 0x1000, GP_MEM_MANAGED, 1) == 0);
    GP_CHECK(gp_alloc_add(t, 0x2000, 0x10, GP_MEM_GLOBAL, 2) == 0);
    GP_CHECK(gp_alloc_add(t, 0x9000, 0, GP_MEM_DEVICE, 1) == -1); /* empty range refused */

    /* any pointer into an allocation finds it; one past the end does not */
    GP_CHECK(gp_alloc_find(t, 0x1000, &r) == 0 && r.base == 0x1000 && r.size == 0x100);
    GP_CHECK(gp_alloc_find(t, 0x10ff, &r) == 0 && r.base == 0x1000);
    GP_CHECK(gp_alloc_find(t, 0x1100, &r) == -1);
    GP_CHECK(gp_alloc_find(t, 0xfff, &r) == -1);
    GP_CHECK(gp_alloc_find(t, 0x3abc, &r) == 0 && r.kind == GP_MEM_MANAGED);
    GP_CHECK(gp_alloc_find(t, 0x200f, &r) == 0 && r.kind == GP_MEM_GLOBAL);

    /* host writes are attributed to the allocation that holds them */
    GP_CHECK(gp_alloc_note_host_write(t, 0x1010, 64) == 0);
    GP_CHECK(gp_alloc_note_host_write(t, 0x1020, 16) == 0);
    GP_CHECK(gp_alloc_note_host_write(t, 0x5000, 16) == -1);
    GP_CHECK(gp_alloc_host_written(t, 0x1000) == 80);
    GP_CHECK(gp_alloc_host_written(t, 0x3000) == 0);

    /* per-context collection: ctx 1 sees its own and the managed range, sorted */
    gp_range out[8];
    uint64_t total = 0;
    size_t n = gp_alloc_collect(t, 1, out, 8, &total);
    GP_CHECK(n == 2 && out[0].base == 0x1000 && out[1].base == 0x3000 && total == 0x1100);
    n = gp_alloc_collect(t, 2, out, 8, &total);
    GP_CHECK(n == 2 && out[0].base == 0x2000 && out[1].base == 0x3000); /* managed: every ctx */
    n = gp_alloc_collect(t, 0, out, 1, &total);
    GP_CHECK(n == 3 && total == 0x1110); /* count beyond max is still reported */

    /* surface-writable CUDA arrays: collected after the ranges of their
     * context, with their shape; never found by address (a handle is not one) */
    GP_CHECK(gp_alloc_add_array(t, 0x1000, 4096, 512, 1, 1) == 0); /* same value as a range base */
    GP_CHECK(gp_alloc_add_array(t, 0x7777, 64, 8, 6, 2) == 0);
    GP_CHECK(gp_alloc_add_array(t, 0x8888, 64, 0, 1, 1) == -1); /* empty shape refused */
    GP_CHECK(gp_alloc_find(t, 0x1000, &r) == 0 && r.kind == GP_MEM_DEVICE && r.size == 0x100);
    n = gp_alloc_collect(t, 1, out, 8, &total);
    GP_CHECK(n == 3 && out[0].base == 0x1000 && out[0].kind == GP_MEM_DEVICE &&
             out[0].row_bytes == 0 && out[2].kind == GP_MEM_ARRAY && out[2].base == 0x1000 &&
             out[2].size == 4096 * 512 && out[2].row_bytes == 4096 && out[2].rows == 512 &&
             out[2].layers == 1 && total == 0x1100 + 4096 * 512);
    n = gp_alloc_collect(t, 2, out, 8, &total);
    GP_CHECK(n == 3 && out[2].kind == GP_MEM_ARRAY && out[2].size == 64 * 8 * 6);
    GP_CHECK(gp_alloc_remove_array(t, 0x1000) == 0 && gp_alloc_remove_array(t, 0x1000) == -1);
    GP_CHECK(gp_alloc_remove_array(t, 0x7777) == 0);
    n = gp_alloc_collect(t, 1, out, 8, &total);
    GP_CHECK(n == 2 && total == 0x1100);
    /* element sizes: float4 16, uchar1 1, half2 4; planar and compressed formats are not saved */
    GP_CHECK(gp_array_element_bytes(0x20, 4) == 16 && gp_array_element_bytes(0x01, 1) == 1 &&
             gp_array_element_bytes(0x10, 2) == 4 && gp_array_element_bytes(0x0a, 2) == 8);
    GP_CHECK(gp_array_element_bytes(0x20, 3) == 0 && gp_array_element_bytes(0xb0, 1) == 0 &&
             gp_array_element_bytes(0x91, 4) == 0);

    /* frees remove; a second free of the same base fails; re-adding replaces */
    GP_CHECK(gp_alloc_remove(t, 0x1000) == 0);
    GP_CHECK(gp_alloc_remove(t, 0x1000) == -1);
    GP_CHECK(gp_alloc_find(t, 0x1010, &r) == -1);
    GP_CHECK(gp_alloc_add(t, 0x3000, 0x20, GP_MEM_DEVICE, 1) == 0);
    GP_CHECK(gp_alloc_find(t, 0x3100, &r) == -1 && gp_alloc_count(t) == 2);

    /* peer access: context 1's collection takes in context 5's memory while
     * 1 may reach it, never the reverse; the links are found both ways */
    {
        gp_alloc_table *pt = gp_alloc_table_create();
        gp_range pr[8];
        uint64_t peers[4];
        gp_alloc_add(pt, 0x1000, 0x100, GP_MEM_DEVICE, 1);
        gp_alloc_add(pt, 0x9000, 0x100, GP_MEM_DEVICE, 5);
        gp_alloc_add(pt, 0xa000, 0x100, GP_MEM_DEVICE, 7);
        GP_CHECK(gp_alloc_collect(pt, 1, pr, 8, NULL) == 1);
        GP_CHECK(gp_alloc_peer_access(pt, 1, 5, 1) == 0 && gp_alloc_peer_access(pt, 1, 5, 1) == 0);
        GP_CHECK(gp_alloc_collect(pt, 1, pr, 8, NULL) == 2 && pr[1].base == 0x9000);
        GP_CHECK(gp_alloc_collect(pt, 5, pr, 8, NULL) == 1 && pr[0].base == 0x9000);
        GP_CHECK(gp_alloc_peers_of(pt, 5, peers, 4) == 1 && peers[0] == 1);
        GP_CHECK(gp_alloc_peer_access(pt, 5, 1, 1) == 0 && gp_alloc_peer_access(pt, 7, 1, 1) == 0);
        GP_CHECK(gp_alloc_peers_of(pt, 1, peers, 4) == 2 && peers[0] == 5 && peers[1] == 7);
        GP_CHECK(gp_alloc_peer_access(pt, 1, 5, 0) == 0);
        GP_CHECK(gp_alloc_collect(pt, 1, pr, 8, NULL) == 1);
        GP_CHECK(gp_alloc_peers_of(pt, 1, peers, 4) == 2); /* 5 -> 1 and 7 -> 1 remain */
        GP_CHECK(gp_alloc_peer_access(pt, 1, 0, 0) == 0 && gp_alloc_peers_of(pt, 1, peers, 4) == 0);
        gp_alloc_table_destroy(pt);
    }

    /* memory shared with other processes is never collected: by address
     * (CUDA IPC), by physical allocation exported after or imported before
     * its mapping */
    {
        gp_alloc_table *st = gp_alloc_table_create();
        gp_range sr[8];
        gp_alloc_add(st, 0x1000, 0x100, GP_MEM_DEVICE, 1);
        gp_alloc_add(st, 0x2000, 0x100, GP_MEM_DEVICE, 1);
        gp_alloc_add_vmm(st, 0x10000, 0x1000, 77, 1);
        gp_alloc_add_vmm(st, 0x20000, 0x1000, 78, 1);
        GP_CHECK(gp_alloc_collect(st, 1, sr, 8, NULL) == 4);
        GP_CHECK(gp_alloc_share(st, 0x1010) == 0 && gp_alloc_share(st, 0x5000) == -1);
        GP_CHECK(gp_alloc_share_handle(st, 77) == 0); /* exported after the mapping */
        GP_CHECK(gp_alloc_share_handle(st, 99) == 0); /* imported, mapped next */
        gp_alloc_add_vmm(st, 0x30000, 0x1000, 99, 1);
        GP_CHECK(gp_alloc_collect(st, 1, sr, 8, NULL) == 2 && sr[0].base == 0x2000 &&
                 sr[1].base == 0x20000);
        gp_alloc_table_destroy(st);
    }

    /* many allocations, lookups in the middle of each */
    for (uint64_t i = 0; i < 10000; i++)
        gp_alloc_add(t, 0x100000 + i * 0x1000, 0x800, GP_MEM_DEVICE, 3);
    int found = 0, missed = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        found += gp_alloc_find(t, 0x100000 + i * 0x1000 + 0x7ff, &r) == 0 &&
                 r.base == 0x100000 + i * 0x1000;
        missed += gp_alloc_find(t, 0x100000 + i * 0x1000 + 0x800, &r) != 0;
    }
    GP_CHECK(found == 10000 && missed == 10000);
    gp_alloc_table_destroy(t);
    return gp_test_finish("alloc_track");
}
