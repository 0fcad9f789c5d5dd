#define regA 0x10
#define regA_BASE_IDX 1
#define regB 0x10
#define regB_BASE_IDX 1
// sh_mask.h
#define A__X__SHIFT 0x1
#define A__X_MASK 0x0000000CL
#define B__Y__SHIFT 0x0
#define B__Y_MASK 0x00000005L
