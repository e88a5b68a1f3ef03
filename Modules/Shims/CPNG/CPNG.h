#ifndef RIBCAGE_CPNG_H
#define RIBCAGE_CPNG_H

// libpng for Swift, through its simplified API (no longjmp), with the size macros that Swift
// does not import done here.

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Decodes the PNG in `data` into 8-bit RGBA. Images of more than `max_pixels` pixels are
/// refused. On success returns 0 with `*pixels` (freed by the caller with `free`), `*width` and
/// `*height`; otherwise returns -1 with the reason in `message`.
static inline int ribcage_png_decode(
    const void *data, size_t size, unsigned long max_pixels, unsigned char **pixels, unsigned *width,
    unsigned *height, char *message, size_t message_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        snprintf(message, message_size, "%s", image.message);
        return -1;
    }
    if ((unsigned long)image.width * image.height > max_pixels) {
        snprintf(message, message_size, "%ux%u pixels is more than allowed", image.width, image.height);
        png_image_free(&image);
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    unsigned char *buffer = malloc(PNG_IMAGE_SIZE(image));
    if (buffer == NULL) {
        snprintf(message, message_size, "out of memory");
        png_image_free(&image);
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        snprintf(message, message_size, "%s", image.message);
        free(buffer);
        png_image_free(&image);
        return -1;
    }
    *pixels = buffer;
    *width = image.width;
    *height = image.height;
    return 0;
}

#endif
