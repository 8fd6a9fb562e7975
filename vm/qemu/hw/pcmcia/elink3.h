/*
 * 3Com EtherLink III PC Cards: the chip core and its PC Card front end,
 * shared by the card models of that family (pcmcia-3c589, pcmcia-3c574).
 *
 * The chip shows its registers through windows of 16 ports: window n is
 * chosen with the SelectWindow command, and the command/status port at
 * 0x0e is in every window.  The status word carries the window number in
 * bits 15:13 (drivers check it to tell a live card from a dead bus).
 *
 *   window 0  setup: manufacturer and product ID (0x00, 0x02),
 *             configuration control (0x04), address and resource
 *             configuration (0x06, 0x08), EEPROM command and data (0x0a,
 *             0x0c; a read takes 162 us, busy in bit 15 of 0x0a)
 *   window 1  operation: RX/TX FIFO data (0x00, also at 0x02 so that a
 *             32-bit access split into two 16-bit cycles works), RX status
 *             of the oldest frame (0x08), timer (0x0a), TX status stack
 *             (0x0b, a write pops), TX free bytes (0x0c)
 *   window 2  station address (0x00-0x05), what the receive filter uses
 *   window 4  diagnostics: FIFO (0x04), media type and status (0x0a: link
 *             beat in bit 11)
 *   window 6  statistics, 8-bit counters at 0x00-0x08, octets at 0x0a and
 *             0x0c; each clears when read
 *
 * Receive: frames go into the RX FIFO back to back (each rounded up to
 * 32 bits); the host reads the oldest through the data port and drops it
 * with RxDiscard.  A frame that does not fit is cut where the FIFO is full
 * and reported with the overrun error; one that arrives with the FIFO
 * full is lost; both count in the RX overrun statistic.  Transmit: the
 * host writes a 32-bit header (length, bit 15: a status entry when sent)
 * and the frame padded to 32 bits; the frame leaves when complete.
 *
 * The card type gives the FIFO sizes, the identity and the CIS
 * configuration tuples, the size of its I/O range (32 ports: window 1 is
 * also mapped at 0x10-0x1f, whatever window is selected), the width of
 * the EEPROM address, the unit of the thresholds, and registers of its
 * own through hooks; the front end here owns the function configuration
 * registers (COR, CCSR), IREQ#, power-on reset, the NIC and the wire
 * pacing (nic-card.h).
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_ELINK3_H
#define HW_PCMCIA_ELINK3_H

#include "pcmcia-slot.h"
#include "net/net.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "nic-card.h"

#define TYPE_PCL_ELINK3_CARD "pcl-elink3-card"
OBJECT_DECLARE_TYPE(PCLElink3Card, PCLElink3CardClass, PCL_ELINK3_CARD)

#define EL3_FIFO_MAX            (32 * 1024)
#define EL3_RX_SLOTS            128     /* more than minimal frames fit */
#define EL3_TX_STATUS_DEPTH     31
#define EL3_EEPROM_WORDS        256
#define EL3_STATS_BYTES         9
#define EL3_MAX_CIS             256

/* EEPROM words */
#define EL3_EE_NODE             0       /* 3 words, first byte high */
#define EL3_EE_PRODUCT          3
#define EL3_EE_MANUFACTURER     7
#define EL3_EE_ADDR_CFG         8
#define EL3_EE_RESOURCE_CFG     9
#define EL3_EE_OEM_NODE         10

/* Ports of window 1, the FIFO's data port */
#define EL3_DATA                0x00
#define EL3_DATA_HI             0x02

struct PCLElink3Card {
    /*< private >*/
    PCLCardState parent_obj;
    /*< public >*/

    NICConf conf;
    NICState *nic;
    NICWire wire;               /* its rate is the wire-rate property */
    bool stuck_reset;           /* fault: resets never finish */

    uint8_t cis[EL3_MAX_CIS];
    int cis_len;
    uint8_t cor;
    uint8_t ccsr;
    bool ireq;

    uint16_t eeprom[EL3_EEPROM_WORDS];
    uint16_t eeprom_cmd;
    uint16_t eeprom_data;
    int64_t eeprom_ready;       /* QEMU_CLOCK_VIRTUAL ns */

    /* command and status */
    uint8_t window;
    bool cmd_busy;
    uint8_t latched;            /* latched status bits (0, 1, 3, 5, 6) */
    uint8_t int_enable;
    uint8_t status_enable;
    uint8_t rx_filter;
    bool rx_enabled;
    bool tx_enabled;
    bool stats_enabled;
    uint16_t rx_early;
    uint16_t tx_avail;          /* threshold, EL3_THRESH_OFF when none */
    uint16_t tx_start;

    /* window 0, 2, 4 registers */
    uint16_t config_ctrl;
    uint16_t addr_cfg;
    uint16_t resource_cfg;
    uint8_t station[6];
    uint16_t media;
    uint16_t fifo_diag;

    /* window 6 */
    uint8_t stats[EL3_STATS_BYTES];
    uint16_t rx_octets;
    uint16_t tx_octets;

    /* RX FIFO: frames back to back in a ring of bytes */
    uint8_t rx_buf[EL3_FIFO_MAX];
    uint32_t rx_start;          /* first byte of the oldest frame */
    uint32_t rx_used;           /* bytes held, frames rounded to 4 */
    uint16_t rx_read;           /* bytes of the oldest frame read */
    uint16_t rx_len[EL3_RX_SLOTS];
    uint16_t rx_error[EL3_RX_SLOTS];
    uint8_t rx_first;
    uint8_t rx_count;

    /* TX FIFO: header and frame, back to back from the start */
    uint8_t tx_buf[EL3_FIFO_MAX];
    uint32_t tx_used;
    bool tx_on_wire;            /* the first frame is being sent */
    QEMUTimer *tx_timer;
    uint8_t tx_status[EL3_TX_STATUS_DEPTH];
    uint8_t tx_status_count;
};

struct PCLElink3CardClass {
    /*< private >*/
    PCMCIACardClass parent_class;
    /*< public >*/

    NICCardIdentity id;
    uint32_t config_base;       /* attribute address of the COR */
    uint16_t product_id;        /* window 0, 0x02, and EEPROM word 3 */
    uint32_t rx_fifo_size;
    uint32_t tx_fifo_size;
    unsigned io_ports;          /* 16, or 32 with window 1 at 0x10-0x1f */
    unsigned eeprom_addr_bits;  /* the read opcode (2) is just above */
    unsigned threshold_shift;   /* thresholds in bytes (0), dwords (2) */
    /* IREQ# waits for window 0's configuration control bit 0 (3c509) */
    bool adapter_enable;

    /*
     * Registers of the card's own: @port is the offset in the card's I/O
     * range (0 to io_ports - 1), @win the window it shows (1 for the
     * upper half of 32 ports), @wide a 16-bit cycle.  Return false to let
     * the core decode the access (it sees FIFO cycles after the hook).
     */
    bool (*port_read)(PCLElink3Card *s, unsigned win, unsigned port,
                      bool wide, uint16_t *val);
    bool (*port_write)(PCLElink3Card *s, unsigned win, unsigned port,
                       bool wide, uint16_t val);
    /* its own registers after TotalReset, or at power-on */
    void (*card_reset)(PCLElink3Card *s, bool power_on);
    void (*link_changed)(PCLElink3Card *s, bool up);
};

extern const VMStateDescription vmstate_pcl_elink3_card;

#endif
