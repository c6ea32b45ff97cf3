// Serial keypad for the Clans companion (firmware/serial-keypad/README.md).
//
// Scans a 4x4 membrane keypad and sends one checked frame per key press over
// USB serial at 9600 baud (keyframe.h): "K", the key ('0'-'9', '*', '#',
// 'A'-'D'), the press count 0-F, a CRC-8 as two hex digits, LF. Nothing else is
// ever sent (no banner, no key release, no auto-repeat): the Pi
// (companion/hw/keypad.py) takes only whole frames whose check is right, so
// noise on the cable never plays a key.
//
// Boards: Arduino Nano (ATmega328P, USB-serial chip) or Pro Micro /
// Leonardo / Micro (ATmega32U4, native USB). Library: Keypad 3.1.1 by
// Mark Stanley and Alexander Brevig (arduino-cli lib install "Keypad@3.1.1").
//
// Wiring: the membrane's 8-pin connector, pin 1 on the left with the keys
// facing you, is rows 1-4 then columns 1-4. Plug it straight onto D9..D2:
//   membrane pin  1   2   3   4   5   6   7   8
//   keypad line   R1  R2  R3  R4  C1  C2  C3  C4
//   board pin     D9  D8  D7  D6  D5  D4  D3  D2
// No resistors: the library uses the AVR's internal pull-ups on the rows.

#include <Keypad.h>
#include "keyframe.h"

const byte ROWS = 4, COLS = 4;
char keys[ROWS][COLS] = {
  {'1', '2', '3', 'A'},
  {'4', '5', '6', 'B'},
  {'7', '8', '9', 'C'},
  {'*', '0', '#', 'D'},
};
byte rowPins[ROWS] = {9, 8, 7, 6};  // R1..R4 = membrane pins 1..4
byte colPins[COLS] = {5, 4, 3, 2};  // C1..C4 = membrane pins 5..8
Keypad keypad = Keypad(makeKeymap(keys), rowPins, colPins, ROWS, COLS);
uint8_t presses = 0;                // the frame's sequence number: the Pi sees a lost frame

void setup() {
  Serial.begin(9600);           // a native-USB board ignores the rate; the Pi opens 9600
  keypad.setDebounceTime(20);   // ms; membrane contacts bounce a little longer than the default 10
}

void loop() {
  char k = keypad.getKey();     // the key just pressed, once per press, else NO_KEY (0)
  if (k != NO_KEY) {
    uint8_t frame[KEYFRAME_LEN];
    keyframe_encode(k, presses++, frame);
    Serial.write(frame, KEYFRAME_LEN);  // 6 bytes: about 6 ms at 9600 baud
  }
}
