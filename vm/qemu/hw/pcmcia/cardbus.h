/*
 * The core of a PCI-to-CardBus bridge (a "yenta" compatible socket): the
 * header-type-2 configuration space, the CardBus socket registers and the
 * ExCA block in the socket's register BAR, and one 16-bit PC Card slot.
 * Chip front ends (ti-pci1225.c, ricoh-rl5c476.c) derive from
 * TYPE_CARDBUS_BRIDGE and add their own configuration registers.
 *
 * One QEMU device is one socket, i.e. one PCI function, as on the real
 * two-socket chips whose second socket is function 1 with the same
 * register set.  The socket takes either kind of card, one at a time:
 *   -device pcmcia-cf,bus=<id>.0,...      a 16-bit PC Card (any model)
 *   -device e1000,bus=<id>.cb,...         a CardBus card: any conventional
 *                                         PCI device on the secondary bus
 * both inserted with device_add and surprise-ejected with device_del.
 *
 * Part of pcmcia-legacy.  SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HW_PCMCIA_CARDBUS_H
#define HW_PCMCIA_CARDBUS_H

#include "hw/pci/pci.h"
#include "hw/pci/pci_bus.h"
#include "qom/object.h"
#include "exca.h"

#define TYPE_CARDBUS_BRIDGE "pcl-cardbus-bridge"
OBJECT_DECLARE_TYPE(CardBusBridge, CardBusBridgeClass, CARDBUS_BRIDGE)

/* Socket register BAR: socket registers first, the ExCA block at 0x800 */
#define CB_BAR_SIZE             0x1000
#define CB_EXCA_OFFSET          0x800

#define CB_SOCKET_EVENT         0x00    /* write 1 to clear */
#define CB_SOCKET_MASK          0x04
#define CB_SOCKET_STATE         0x08    /* read only */
#define CB_SOCKET_FORCE         0x0c
#define CB_SOCKET_CONTROL       0x10

/* EVENT and MASK */
#define CB_EV_CSTSCHG           0x01
#define CB_EV_CD1               0x02
#define CB_EV_CD2               0x04
#define CB_EV_POWER             0x08
#define CB_EV_ALL               0x0f

/* STATE (and FORCE for bits 13:0) */
#define CB_ST_CARDSTS           0x00000001
#define CB_ST_CD1               0x00000002      /* 1: pin not grounded */
#define CB_ST_CD2               0x00000004
#define CB_ST_PWRCYCLE          0x00000008
#define CB_ST_16BIT             0x00000010
#define CB_ST_CBCARD            0x00000020
#define CB_ST_NOTACARD          0x00000080
#define CB_ST_BADVCCREQ         0x00000200
#define CB_ST_5VCARD            0x00000400
#define CB_ST_3VCARD            0x00000800
#define CB_ST_5VSOCKET          0x10000000
#define CB_ST_3VSOCKET          0x20000000
#define CB_FORCE_CVSTEST        0x00004000

/* CONTROL: Vpp 2:0, Vcc 6:4 (1 and 2: 12/5 V Vpp; 2 and 3: 5/3.3 V) */
#define CB_CTL_VPP_MASK         0x07
#define CB_CTL_VCC_MASK         0x70
#define CB_CTL_VCC_5V           0x20
#define CB_CTL_VCC_3V           0x30
#define CB_CTL_STOPCLK          0x80

/* Header type 2 */
#define CB_CFG_BRIDGE_CTL       0x3e
#define CB_BCTL_CRST            0x0040
#define CB_BCTL_16BIT_ISA       0x0080  /* 16-bit card IREQ# to ISA */
#define CB_BCTL_RESET_VALUE     0x0340  /* CRST, both windows prefetch */
#define CB_CFG_SSVID            0x40
#define CB_CFG_SSID             0x42
#define CB_CFG_LEGACY_BASE      0x44

struct CardBusBridge {
    /*< private >*/
    PCIDevice parent_obj;
    /*< public >*/

    MemoryRegion regs;          /* BAR 0 */
    ExcaSocket exca;

    /* the CardBus side: secondary bus "<id>.cb", its spaces, the windows */
    PCIBus sec_bus;
    MemoryRegion sec_mem;
    MemoryRegion sec_io;
    MemoryRegion win[4];        /* memory 0, memory 1, I/O 0, I/O 1 */
    MemoryRegion abort_mem;     /* no card answers: master abort */
    MemoryRegion abort_io;
    unsigned cb_functions;      /* functions of the CardBus card present */
    bool cint;                  /* the CardBus card's CINT# */

    uint32_t event;
    uint32_t mask;
    uint32_t control;
    bool powered;               /* STATE.PWRCYCLE as last reported */
    bool irq_level;

    /* properties */
    uint16_t ssvid;
    uint16_t ssid;
};

/* A chip's own configuration register: its write mask and power-on value. */
typedef struct CardBusChipReg {
    uint8_t offset;
    uint8_t size;               /* 1, 2 or 4 bytes */
    uint32_t wmask;
    uint32_t reset;
} CardBusChipReg;

struct CardBusBridgeClass {
    /*< private >*/
    PCIDeviceClass parent_class;
    /*< public >*/

    /* the chip's own registers, ended by one of size 0 */
    const CardBusChipReg *chip_regs;
    /* optional, after the core's realize */
    void (*chip_realize)(CardBusBridge *s);
    /* optional, after chip_regs got their power-on values */
    void (*chip_reset)(CardBusBridge *s);
    /* after a configuration write went into config[] */
    void (*chip_config_write)(CardBusBridge *s, uint32_t addr, int len);
    /*
     * whether socket and ExCA status changes reach INTx (default: when
     * CSCINT selects no ISA IRQ)
     */
    bool (*csc_to_pci)(CardBusBridge *s);
    /* whether the chip drives its INTx pin at all (default: yes) */
    bool (*pin_enabled)(CardBusBridge *s);
};

/* Re-evaluate INTx after the chip changed a routing register. */
void cardbus_irq_update(CardBusBridge *s);

extern const VMStateDescription vmstate_cardbus_bridge;

#endif
