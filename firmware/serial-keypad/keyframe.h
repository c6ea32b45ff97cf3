// The companion's keypad frame (companion/hw/keyframe.py reads it): six ASCII bytes per key press,
//   'K', the key, the press count as one hex digit 0-F, CRC-8 of those three as two hex digits, LF
// e.g. "K#362\n". CRC-8: polynomial 0x07, initial value 0 (the SMBus CRC; "123456789" gives 0xF4).
// Plain C, no Arduino header: tests/hw/test_keyframe.py compiles this file with the machine's C
// compiler and checks it against frames.txt, the vectors the Python decoder is checked against.
#ifndef KEYFRAME_H
#define KEYFRAME_H

#include <stdint.h>

#define KEYFRAME_LEN 6

static uint8_t keyframe_crc8(const uint8_t *data, uint8_t len) {
  uint8_t crc = 0;
  for (uint8_t i = 0; i < len; i++) {
    crc ^= data[i];
    for (uint8_t bit = 0; bit < 8; bit++) {
      crc = (crc & 0x80) ? (uint8_t)((crc << 1) ^ 0x07) : (uint8_t)(crc << 1);
    }
  }
  return crc;
}

// Writes the frame of `key` as press number `seq` (only its low 4 bits count) into out[0..5].
static void keyframe_encode(char key, uint8_t seq, uint8_t out[KEYFRAME_LEN]) {
  static const char hex[] = "0123456789ABCDEF";
  out[0] = 'K';
  out[1] = (uint8_t)key;
  out[2] = (uint8_t)hex[seq & 0x0F];
  uint8_t crc = keyframe_crc8(out, 3);
  out[3] = (uint8_t)hex[crc >> 4];
  out[4] = (uint8_t)hex[crc & 0x0F];
  out[5] = '\n';
}

#endif
