/*
 * MII PHY (registers 0-6) and its bit-banged MDIO front end.  See
 * mii-phy.h.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#include "qemu/osdep.h"
#include "mii-phy.h"
#include "trace.h"

#define BMCR_RESET              0x8000
#define BMCR_ANENABLE           0x1000
#define BMCR_ANRESTART          0x0200
#define BMCR_SELF_CLEARING      (BMCR_RESET | BMCR_ANRESTART)

/* 100BASE-TX FD/HD, 10BASE-T FD/HD, can autonegotiate, extended regs */
#define BMSR_ABILITIES          0x7809
#define BMSR_LINK               0x0004
#define BMSR_ANEG_DONE          0x0020

#define ANAR_DEFAULT            (MII_PHY_AN_100FD | MII_PHY_AN_100HD | \
                                 MII_PHY_AN_10FD | MII_PHY_AN_10HD | \
                                 MII_PHY_AN_CSMA)
#define ANER_PARTNER_CAN_ANEG   0x0001

void mii_phy_init(MIIPhy *phy, uint32_t id, uint16_t partner)
{
    phy->id = id;
    phy->partner = partner;
    phy->link = true;
    mii_phy_reset(phy);
}

void mii_phy_reset(MIIPhy *phy)
{
    phy->bmcr = BMCR_ANENABLE;
    phy->anar = ANAR_DEFAULT;
    phy->link_latched_low = false;
}

void mii_phy_set_link(MIIPhy *phy, bool up)
{
    if (phy->link && !up) {
        phy->link_latched_low = true;
    }
    phy->link = up;
}

static bool mii_phy_negotiated(MIIPhy *phy)
{
    return phy->link && (phy->bmcr & BMCR_ANENABLE);
}

uint16_t mii_phy_read(MIIPhy *phy, unsigned reg)
{
    uint16_t val;

    switch (reg) {
    case MII_PHY_BMCR:
        val = phy->bmcr;
        break;
    case MII_PHY_BMSR:
        val = BMSR_ABILITIES;
        if (phy->link && !phy->link_latched_low) {
            val |= BMSR_LINK;
        }
        if (mii_phy_negotiated(phy)) {
            val |= BMSR_ANEG_DONE;
        }
        /* the latch holds until software has seen the drop */
        phy->link_latched_low = false;
        break;
    case MII_PHY_ID1:
        val = phy->id >> 16;
        break;
    case MII_PHY_ID2:
        val = phy->id & 0xffff;
        break;
    case MII_PHY_ANAR:
        val = phy->anar;
        break;
    case MII_PHY_ANLPAR:
        val = mii_phy_negotiated(phy) ? phy->partner | MII_PHY_AN_ACK : 0;
        break;
    case MII_PHY_ANER:
        val = mii_phy_negotiated(phy) ? ANER_PARTNER_CAN_ANEG : 0;
        break;
    default:
        val = 0;
        break;
    }
    trace_pcl_mii_read(reg, val);
    return val;
}

void mii_phy_write(MIIPhy *phy, unsigned reg, uint16_t val)
{
    trace_pcl_mii_write(reg, val);
    switch (reg) {
    case MII_PHY_BMCR:
        if (val & BMCR_RESET) {
            mii_phy_reset(phy);
        } else {
            phy->bmcr = val & ~BMCR_SELF_CLEARING;
        }
        break;
    case MII_PHY_ANAR:
        phy->anar = val;
        break;
    }
}

/* --- MDIO frames: <32 ones> 01 OP(2) PHY(5) REG(5) TA(2) DATA(16) --- */

enum {
    MDIO_IDLE,                  /* counting preamble ones */
    MDIO_START,                 /* saw the 0 of the start field */
    MDIO_COMMAND,               /* op, PHY and register address */
    MDIO_WRITE_TA,
    MDIO_WRITE_DATA,
    MDIO_READ,                  /* the PHY drives TA and data */
};

#define MDIO_PREAMBLE           32
#define MDIO_OP_READ            2
#define MDIO_OP_WRITE           1
/* what the PHY drives during a read: Z then 0 (turnaround), 16 bits */
#define MDIO_READ_BITS          18

void mdio_bb_reset(MDIOBitBang *bb)
{
    memset(bb, 0, sizeof(*bb));
}

bool mdio_bb_mdi(const MDIOBitBang *bb)
{
    if (bb->state != MDIO_READ || bb->count == 0) {
        return true;            /* released: the pull-up */
    }
    if (bb->count == 1) {
        return false;           /* second turnaround bit */
    }
    return bb->out & (0x8000 >> (bb->count - 2));
}

static void mdio_bb_command(MDIOBitBang *bb, MIIPhy *phy, unsigned addr)
{
    unsigned op = bb->shift >> 10;
    unsigned phy_addr = (bb->shift >> 5) & 0x1f;

    bb->reg = bb->shift & 0x1f;
    bb->count = 0;
    bb->shift = 0;
    if (!phy || phy_addr != addr) {
        bb->state = MDIO_IDLE;  /* nobody answers: the host reads ones */
    } else if (op == MDIO_OP_READ) {
        bb->out = mii_phy_read(phy, bb->reg);
        bb->state = MDIO_READ;
    } else if (op == MDIO_OP_WRITE) {
        bb->state = MDIO_WRITE_TA;
    } else {
        bb->state = MDIO_IDLE;
    }
}

/* One rising MDC edge with the line at @bit. */
static void mdio_bb_clock(MDIOBitBang *bb, MIIPhy *phy, unsigned addr,
                          bool bit)
{
    switch (bb->state) {
    case MDIO_IDLE:
        if (bit) {
            bb->count = MIN(bb->count + 1, MDIO_PREAMBLE);
        } else {
            bb->state = bb->count >= MDIO_PREAMBLE ? MDIO_START : MDIO_IDLE;
            bb->count = 0;
        }
        break;
    case MDIO_START:
        bb->state = bit ? MDIO_COMMAND : MDIO_IDLE;
        bb->count = 0;
        bb->shift = 0;
        break;
    case MDIO_COMMAND:
        bb->shift = bb->shift << 1 | bit;
        if (++bb->count == 12) {
            mdio_bb_command(bb, phy, addr);
        }
        break;
    case MDIO_WRITE_TA:
        if (++bb->count == 2) {
            bb->state = MDIO_WRITE_DATA;
            bb->count = 0;
        }
        break;
    case MDIO_WRITE_DATA:
        bb->shift = bb->shift << 1 | bit;
        if (++bb->count == 16) {
            if (phy) {
                mii_phy_write(phy, bb->reg, bb->shift);
            }
            bb->state = MDIO_IDLE;
            bb->count = 0;
        }
        break;
    case MDIO_READ:
        if (++bb->count == MDIO_READ_BITS) {
            bb->state = MDIO_IDLE;
            bb->count = 0;
        }
        break;
    }
}

void mdio_bb_pins(MDIOBitBang *bb, MIIPhy *phy, unsigned addr,
                  bool mdc, bool drive, bool mdo)
{
    bool rising = mdc && !bb->mdc;

    bb->mdc = mdc;
    if (rising) {
        mdio_bb_clock(bb, phy, addr, drive ? mdo : mdio_bb_mdi(bb));
    }
}

const VMStateDescription vmstate_mii_phy = {
    .name = "pcl-mii-phy",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT16(bmcr, MIIPhy),
        VMSTATE_UINT16(anar, MIIPhy),
        VMSTATE_BOOL(link, MIIPhy),
        VMSTATE_BOOL(link_latched_low, MIIPhy),
        VMSTATE_END_OF_LIST()
    }
};

const VMStateDescription vmstate_mdio_bb = {
    .name = "pcl-mdio-bitbang",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT8(state, MDIOBitBang),
        VMSTATE_UINT8(count, MDIOBitBang),
        VMSTATE_UINT16(shift, MDIOBitBang),
        VMSTATE_UINT16(out, MDIOBitBang),
        VMSTATE_UINT8(reg, MDIOBitBang),
        VMSTATE_BOOL(mdc, MDIOBitBang),
        VMSTATE_END_OF_LIST()
    }
};
