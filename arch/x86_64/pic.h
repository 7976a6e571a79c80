#ifndef ARCH_PIC_H
#define ARCH_PIC_H

/* Remap and mask both legacy PICs. */
void pic_disable(void);

#endif
