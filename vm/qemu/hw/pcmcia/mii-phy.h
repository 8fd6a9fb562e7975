/*
 * An IEEE 802.3 clause 22 MII PHY for the Ethernet card models, and the
 * bit-banged MDIO front end that PC Card NICs put behind an I/O port.
 *
 * The PHY has the basic register set (0-6): control, status with a link
 * bit that latches low, identifier, own and link partner abilities, and
 * the autonegotiation expansion.  The link follows the card's QEMU link
 * state; "autonegotiation" completes at once with a fixed partner.
 *
 * A card calls mdio_bb_pins() on every write of its MII port with the
 * levels of MDC, the host's data-out enable and data-out bit; the PHY
 * acts on rising MDC edges.  mdio_bb_mdi() is the level the host reads.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_MII_PHY_H
#define HW_PCMCIA_MII_PHY_H

#include "migration/vmstate.h"

/* Registers */
#define MII_PHY_BMCR            0
#define MII_PHY_BMSR            1
#define MII_PHY_ID1             2
#define MII_PHY_ID2             3
#define MII_PHY_ANAR            4
#define MII_PHY_ANLPAR          5
#define MII_PHY_ANER            6

/* Ability bits of ANAR/ANLPAR */
#define MII_PHY_AN_10HD         0x0020
#define MII_PHY_AN_10FD         0x0040
#define MII_PHY_AN_100HD        0x0080
#define MII_PHY_AN_100FD        0x0100
#define MII_PHY_AN_CSMA         0x0001
#define MII_PHY_AN_ACK          0x4000

typedef struct MIIPhy {
    uint32_t id;                /* ID1:ID2 */
    uint16_t partner;           /* what the link partner advertises */
    uint16_t bmcr;
    uint16_t anar;
    bool link;                  /* cable and partner present */
    bool link_latched_low;      /* link dropped since BMSR was read */
} MIIPhy;

void mii_phy_init(MIIPhy *phy, uint32_t id, uint16_t partner);
void mii_phy_reset(MIIPhy *phy);
void mii_phy_set_link(MIIPhy *phy, bool up);
uint16_t mii_phy_read(MIIPhy *phy, unsigned reg);
void mii_phy_write(MIIPhy *phy, unsigned reg, uint16_t val);

typedef struct MDIOBitBang {
    uint8_t state;
    uint8_t count;              /* preamble ones, or bits of a field */
    uint16_t shift;             /* bits of the field in progress */
    uint16_t out;               /* register value being read out */
    uint8_t reg;
    bool mdc;                   /* last MDC level */
} MDIOBitBang;

void mdio_bb_reset(MDIOBitBang *bb);
/*
 * One write to the card's MII port.  @phy is NULL when no PHY answers
 * (powered down); @addr is the PHY's address on the management bus.
 */
void mdio_bb_pins(MDIOBitBang *bb, MIIPhy *phy, unsigned addr,
                  bool mdc, bool drive, bool mdo);
/* The MDIO level the host samples (pulled up when nobody drives it). */
bool mdio_bb_mdi(const MDIOBitBang *bb);

extern const VMStateDescription vmstate_mii_phy;
extern const VMStateDescription vmstate_mdio_bb;

#define VMSTATE_MII_PHY(f, s) \
    VMSTATE_STRUCT(f, s, 1, vmstate_mii_phy, MIIPhy)
#define VMSTATE_MDIO_BB(f, s) \
    VMSTATE_STRUCT(f, s, 1, vmstate_mdio_bb, MDIOBitBang)

#endif
