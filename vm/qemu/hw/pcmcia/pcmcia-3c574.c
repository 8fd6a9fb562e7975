/*
 * pcmcia-3c574: a 3Com 3C574-TX Fast EtherLink PC Card (the "RoadRunner"
 * ASIC with an MII PHY), which Linux's 3c574_cs drives.
 *
 *   -netdev hubport,id=net0,hubid=0
 *   -device pcmcia-3c574,bus=pcc.0,netdev=net0,mac=00:60:08:12:34:56
 *
 * The EtherLink III core (elink3.c) with what the RoadRunner changes:
 *
 *  - 32 ports: window 1 is also at 0x10-0x1f whatever window is selected,
 *    except two registers of its own there: RunnerRdCtrl (0x16) and
 *    RunnerWrCtrl (0x1c), 11-bit down-counters of the 16-bit FIFO cycles
 *    the host is about to make (one less per cycle, down to 0).  The top
 *    five bits of RunnerRdCtrl choose what the lower 14 ports read: 0
 *    the chip's registers, else a PC Card register window, of which this
 *    model has window 2's byte 2, the ASIC revision in bits 7:3 (1).
 *  - EEPROM read command 0x200 + word (8 address bits); the MAC address
 *    is in words 10-12 (the OEM station address), as 3c574_cs reads it.
 *  - Thresholds (SetTxThreshold) count dwords.
 *  - No adapter enable bit (window 0, 0x04): IREQ# follows the enabled
 *    status bits once the COR selects a configuration.
 *  - Window 3: InternalConfig (0x00, 32 bits, read as two 16-bit cycles;
 *    power-on 0x0162001b: 64 KB of buffer RAM split 1:1, word wide, the
 *    MII transceiver, autoselect), MAC control (0x06: full duplex 0x20),
 *    options (0x08).
 *  - Window 4: network diagnostics (0x06) and the MII management port
 *    (0x08, bit-banged: MDC 0x01, data 0x02, host drives 0x04) to a TDK
 *    78Q2120 PHY at address 0 (mii-phy.c), whose link follows QMP
 *    set_link.  The PHY keeps its state over TotalReset; a card power
 *    cycle resets it.
 *
 * Buffer RAM as InternalConfig says, 32 KB for each FIFO.  Not modelled:
 * the FIFO in attribute and common memory 0x800-0xfff (COR bit 0x10),
 * the 64-bin multicast filter (3c574_cs does not know its layout and
 * takes all multicast frames), the station address mask (window 2,
 * 0x06-0x0b: writes are dropped, all address bits compare), and the
 * upper bits of the frame counters (window 6, 0x09, reads 0: StatsFull
 * at 128 frames has the driver read the counters long before).
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "qemu/module.h"
#include "migration/vmstate.h"
#include "elink3.h"
#include "mii-phy.h"
#include "trace.h"

#define TYPE_PCMCIA_3C574 "pcmcia-3c574"
OBJECT_DECLARE_SIMPLE_TYPE(PCL3c574State, PCMCIA_3C574)

#define TC574_CONFIG_BASE       0x10000

/* Ports in the upper half */
#define TC574_RUNNER_RD         0x16
#define TC574_RUNNER_WR         0x1c
#define RUNNER_COUNT            0x07ff
#define RUNNER_WINDOW_SHIFT     11

/* PC Card register window 2, byte 2: the ASIC revision in bits 7:3 */
#define TC574_ASIC_WINDOW       2
#define TC574_ASIC_PORT         2
#define TC574_ASIC_REV          1

/* Window 3 */
#define W3_CONFIG               0x00
#define W3_CONFIG_HI            0x02
#define W3_MAC_CTRL             0x06
#define W3_OPTIONS              0x08
#define TC574_CONFIG_POWER_ON   0x0162001b

/* Window 4 */
#define W4_NET_DIAG             0x06
#define W4_MII                  0x08
#define MII_MDC                 0x01
#define MII_DATA                0x02
#define MII_DRIVE               0x04

/* TDK 78Q2120 */
#define TC574_PHY_ID            0x0300e540
#define TC574_PHY_ADDR          0

struct PCL3c574State {
    /*< private >*/
    PCLElink3Card parent_obj;
    /*< public >*/

    MIIPhy phy;
    MDIOBitBang mdio;
    uint8_t mii_latch;          /* pins last written to window 4, 0x08 */
    uint16_t runner_rd;
    uint16_t runner_wr;
    uint32_t internal_config;
    uint8_t mac_ctrl;
    uint16_t options;
    uint16_t net_diag;
};

/* One 16-bit FIFO cycle counted down in a Runner control register. */
static void tc574_runner_cycle(uint16_t *ctrl)
{
    if (*ctrl & RUNNER_COUNT) {
        (*ctrl)--;
    }
}

static bool tc574_is_fifo(unsigned win, unsigned port)
{
    return win == 1 && (port & 0x0f) <= EL3_DATA_HI + 1;
}

static uint16_t tc574_mii_read(PCL3c574State *t)
{
    bool line = t->mii_latch & MII_DRIVE ? t->mii_latch & MII_DATA
                                         : mdio_bb_mdi(&t->mdio);

    return (t->mii_latch & ~MII_DATA) | (line ? MII_DATA : 0);
}

/* The 16-bit register at even @off of window @win, if the card has one. */
static bool tc574_word(PCL3c574State *t, unsigned win, unsigned off,
                       uint16_t *val)
{
    switch (win << 4 | off) {
    case 0x30 | W3_CONFIG:
        *val = t->internal_config;
        return true;
    case 0x30 | W3_CONFIG_HI:
        *val = t->internal_config >> 16;
        return true;
    case 0x30 | W3_MAC_CTRL:
        *val = t->mac_ctrl;
        return true;
    case 0x30 | W3_OPTIONS:
        *val = t->options;
        return true;
    case 0x40 | W4_NET_DIAG:
        *val = t->net_diag;
        return true;
    case 0x40 | W4_MII:
        *val = tc574_mii_read(t);
        return true;
    }
    return false;
}

static bool tc574_port_read(PCLElink3Card *s, unsigned win, unsigned port,
                            bool wide, uint16_t *val)
{
    PCL3c574State *t = PCMCIA_3C574(s);
    unsigned cfg_win = t->runner_rd >> RUNNER_WINDOW_SHIFT;
    uint16_t word;

    switch (port & ~1) {
    case TC574_RUNNER_RD:
        word = t->runner_rd;
        break;
    case TC574_RUNNER_WR:
        word = t->runner_wr;
        break;
    default:
        if (port < 16 && cfg_win) {
            /* a PC Card register window instead of the chip's */
            word = 0;
            if (cfg_win == TC574_ASIC_WINDOW &&
                (port & ~1) == TC574_ASIC_PORT) {
                word = TC574_ASIC_REV << 3;
            }
            break;
        }
        if (tc574_is_fifo(win, port)) {
            tc574_runner_cycle(&t->runner_rd);
            return false;
        }
        if (!tc574_word(t, win, port & 0x0e, &word)) {
            return false;
        }
        break;
    }
    *val = wide ? word : (port & 1 ? word >> 8 : word & 0xff);
    return true;
}

/* Store @val into the 16-bit register @reg, a byte of it if not @wide. */
static uint16_t tc574_merge(uint16_t reg, unsigned port, bool wide,
                            uint16_t val)
{
    if (wide) {
        return val;
    }
    if (port & 1) {
        return (reg & 0x00ff) | (val & 0xff) << 8;
    }
    return (reg & 0xff00) | (val & 0xff);
}

static bool tc574_port_write(PCLElink3Card *s, unsigned win, unsigned port,
                             bool wide, uint16_t val)
{
    PCL3c574State *t = PCMCIA_3C574(s);
    uint16_t word;

    switch (port & ~1) {
    case TC574_RUNNER_RD:
        t->runner_rd = tc574_merge(t->runner_rd, port, wide, val);
        return true;
    case TC574_RUNNER_WR:
        t->runner_wr = tc574_merge(t->runner_wr, port, wide, val);
        return true;
    }
    if (tc574_is_fifo(win, port)) {
        tc574_runner_cycle(&t->runner_wr);
        return false;
    }
    switch (win << 4 | (port & 0x0e)) {
    case 0x30 | W3_CONFIG:
        word = tc574_merge(t->internal_config, port, wide, val);
        t->internal_config = (t->internal_config & 0xffff0000) | word;
        return true;
    case 0x30 | W3_CONFIG_HI:
        word = tc574_merge(t->internal_config >> 16, port, wide, val);
        t->internal_config = (t->internal_config & 0xffff) | word << 16;
        return true;
    case 0x30 | W3_MAC_CTRL:
        if (!(port & 1)) {
            t->mac_ctrl = val;
        }
        return true;
    case 0x30 | W3_OPTIONS:
        t->options = tc574_merge(t->options, port, wide, val);
        return true;
    case 0x40 | W4_NET_DIAG:
        t->net_diag = tc574_merge(t->net_diag, port, wide, val);
        return true;
    case 0x40 | W4_MII:
        if (port & 1) {
            return true;
        }
        t->mii_latch = val & (MII_MDC | MII_DATA | MII_DRIVE);
        mdio_bb_pins(&t->mdio, &t->phy, TC574_PHY_ADDR,
                     val & MII_MDC, val & MII_DRIVE, val & MII_DATA);
        return true;
    }
    return false;
}

static void tc574_card_reset(PCLElink3Card *s, bool power_on)
{
    PCL3c574State *t = PCMCIA_3C574(s);

    trace_pcl_tc574_reset(power_on);
    t->runner_rd = 0;
    t->runner_wr = 0;
    t->internal_config = TC574_CONFIG_POWER_ON;
    t->mac_ctrl = 0;
    t->options = 0;
    t->net_diag = 0;
    if (power_on) {
        /* the PHY is a chip of its own, on the card's power */
        mii_phy_reset(&t->phy);
        mdio_bb_reset(&t->mdio);
        t->mii_latch = 0;
    }
}

static void tc574_link_changed(PCLElink3Card *s, bool up)
{
    mii_phy_set_link(&PCMCIA_3C574(s)->phy, up);
}

static void tc574_instance_init(Object *obj)
{
    PCL3c574State *t = PCMCIA_3C574(obj);

    /* a 10/100 switch port that autonegotiates: 100BASE-TX full duplex */
    mii_phy_init(&t->phy, TC574_PHY_ID,
                 MII_PHY_AN_100FD | MII_PHY_AN_100HD | MII_PHY_AN_10FD |
                 MII_PHY_AN_10HD | MII_PHY_AN_CSMA);
}

static const VMStateDescription vmstate_pcmcia_3c574 = {
    .name = TYPE_PCMCIA_3C574,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_STRUCT(parent_obj, PCL3c574State, 1,
                       vmstate_pcl_elink3_card, PCLElink3Card),
        VMSTATE_MII_PHY(phy, PCL3c574State),
        VMSTATE_MDIO_BB(mdio, PCL3c574State),
        VMSTATE_UINT8(mii_latch, PCL3c574State),
        VMSTATE_UINT16(runner_rd, PCL3c574State),
        VMSTATE_UINT16(runner_wr, PCL3c574State),
        VMSTATE_UINT32(internal_config, PCL3c574State),
        VMSTATE_UINT8(mac_ctrl, PCL3c574State),
        VMSTATE_UINT16(options, PCL3c574State),
        VMSTATE_UINT16(net_diag, PCL3c574State),
        VMSTATE_END_OF_LIST()
    }
};

/*
 * CONFIG: registers at 0x10000 (COR, CCSR), last index 1.
 * CFTABLE_ENTRY 1 (default; 3c574_cs asks for it): I/O, Vcc 5 V, 32
 * ports on any 32-port boundary with 8- and 16-bit cycles, any
 * level-mode IRQ.
 */
static const uint8_t tc574_config[] = {
    0x1a, 0x06,  0x02, 0x01, 0x00, 0x00, 0x01, 0x03,
    0x1b, 0x09,  0xc1, 0x01, 0x19, 0x01, 0x55, 0x65, 0x30, 0xff, 0xff,
};

static void tc574_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCLElink3CardClass *ec = PCL_ELINK3_CARD_CLASS(oc);

    ec->id.vers1[0] = "3Com";
    ec->id.vers1[1] = "3C574-TX Fast EtherLink PC Card";
    /* 3c574_cs binds by these */
    ec->id.manfid[0] = 0x0101;
    ec->id.manfid[1] = 0x0574;
    ec->id.config_tuples = tc574_config;
    ec->id.config_tuples_len = sizeof(tc574_config);
    ec->config_base = TC574_CONFIG_BASE;
    /* the 3C574-TX's (3C574B) product ID word */
    ec->product_id = 0x4b57;
    ec->rx_fifo_size = 32 * 1024;
    ec->tx_fifo_size = 32 * 1024;
    ec->io_ports = 32;
    ec->eeprom_addr_bits = 8;
    ec->threshold_shift = 2;
    ec->adapter_enable = false;
    ec->port_read = tc574_port_read;
    ec->port_write = tc574_port_write;
    ec->card_reset = tc574_card_reset;
    ec->link_changed = tc574_link_changed;

    dc->desc = "3Com 3C574-TX Fast EtherLink PC Card";
    dc->vmsd = &vmstate_pcmcia_3c574;
}

static const TypeInfo tc574_info = {
    .name = TYPE_PCMCIA_3C574,
    .parent = TYPE_PCL_ELINK3_CARD,
    .instance_size = sizeof(PCL3c574State),
    .instance_init = tc574_instance_init,
    .class_init = tc574_class_init,
};

static void tc574_register_types(void)
{
    type_register_static(&tc574_info);
}

type_init(tc574_register_types)
