#ifndef RIBCAGE_CJPEG_H
#define RIBCAGE_CJPEG_H

// libjpeg-turbo for Swift. libjpeg reports a fatal error by calling `error_exit`, which by
// default ends the process; Swift cannot longjmp. This C function sets up the jump itself, so a
// damaged file becomes an error code and a message, and the decoder cleans up.

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} ribcage_jpeg_error;

static void ribcage_jpeg_error_exit(j_common_ptr info) {
    ribcage_jpeg_error *error = (ribcage_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

/// Warnings (a corrupt but readable stream) are not printed to standard error.
static void ribcage_jpeg_quiet(j_common_ptr info, int level) {
    (void)info;
    (void)level;
}

/// Decodes the JPEG in `data` into 8-bit RGB, scaled down by libjpeg's DCT scaling (1/2, 1/4 or
/// 1/8) as far as the result stays at least `min_width` by `min_height` (0 decodes full size).
/// Images of more than `max_pixels` pixels are refused. On success returns 0 with `*pixels`
/// (freed by the caller with `free`), `*width`, `*height`, and the full size in `*full_width`
/// and `*full_height`; otherwise returns -1 with the reason in `message`.
static inline int ribcage_jpeg_decode(
    const unsigned char *data, unsigned long size, unsigned min_width, unsigned min_height,
    unsigned long max_pixels, unsigned char **pixels, unsigned *width, unsigned *height,
    unsigned *full_width, unsigned *full_height, char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    ribcage_jpeg_error error;
    unsigned char *volatile buffer = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.base);
    error.base.error_exit = ribcage_jpeg_error_exit;
    error.base.emit_message = ribcage_jpeg_quiet;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(buffer);
        snprintf(message, message_size, "%s", error.message);
        return -1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    *full_width = info.image_width;
    *full_height = info.image_height;
    if ((unsigned long)info.image_width * info.image_height > max_pixels) {
        snprintf(message, message_size, "%ux%u pixels is more than allowed", info.image_width, info.image_height);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    info.out_color_space = JCS_RGB;
    if (min_width > 0 && min_height > 0) {
        unsigned denominator = 1;
        while (denominator < 8 && info.image_width / (denominator * 2) >= min_width &&
               info.image_height / (denominator * 2) >= min_height) {
            denominator *= 2;
        }
        info.scale_num = 1;
        info.scale_denom = denominator;
    }
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * 3;
    buffer = malloc(stride * info.output_height);
    if (buffer == NULL) {
        snprintf(message, message_size, "out of memory");
        jpeg_destroy_decompress(&info);
        return -1;
    }
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = buffer + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    *width = info.output_width;
    *height = info.output_height;
    *pixels = buffer;
    jpeg_destroy_decompress(&info);
    return 0;
}

#endif
