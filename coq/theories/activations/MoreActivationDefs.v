(** * More activations (paper.md R10): definitions only

    - [quick_gelu z = z * sigmoid (1.702 z)]: CLIP's activation,
      Hugging Face transformers' ["quick_gelu"]
      ([input * torch.sigmoid(1.702 * input)]).
    - [gelu_fast z = z/2 * (1 + tanh (0.7978845608 z (1 + 0.044715 z^2)))]:
      transformers' ["gelu_fast"]
      ([0.5 * input * (1.0 + torch.tanh(input * 0.7978845608 *
        (1.0 + 0.044715 * input * input)))]).  The decimal literals are
      written as exact fractions.  Unlike [ActivationDefs.gelu_tanh] the
      scale is the decimal [0.7978845608], not [sqrt (2 / PI)].
    - [heaviside z]: the unit step with value [1] at [0]
      ([1] for [z >= 0], [0] for [z < 0]).  This is PyTorch's
      [torch.heaviside(z, values=1)] (its second argument is the value
      at [z = 0]); [torch.heaviside(z, 0)] would be the other convention.
      [heaviside_at v] is [torch.heaviside(z, v)] for any value [v] at [0].
    - [relu_real_pow k z]: [ReLU(z)^k] for a real degree [k]
      ([0] for [z <= 0], [z^k = Rpower z k] for [z > 0]).

    Their properties are in [MoreActivations.v], [QuickGeluRidge.v],
    [GeluFastRidge.v] and [HomogeneousReal.v]. *)

From Coq Require Import Reals.
Open Scope R_scope.

(** The constant [1.702] of [quick_gelu]. *)
Definition quick_gelu_scale : R := 1702 / 1000.

Definition quick_gelu (z : R) : R := z / (1 + exp (- (1702 / 1000) * z)).

(** The constants [0.7978845608] and [0.044715] of [gelu_fast]. *)
Definition gelu_fast_scale : R := 7978845608 / 10000000000.
Definition gelu_fast_cubic : R := 44715 / 1000000.

Definition gelu_fast (z : R) : R :=
  z / 2 * (1 + tanh (7978845608 / 10000000000 * z * (1 + 44715 / 1000000 * z * z))).

(** The step activation, [1] at [0] (PyTorch's [torch.heaviside(z, 1)]). *)
Definition heaviside (z : R) : R := if Rle_dec 0 z then 1 else 0.

(** The step with an arbitrary value [v] at [0] ([torch.heaviside(z, v)]). *)
Definition heaviside_at (v z : R) : R :=
  if Rlt_dec z 0 then 0 else if Req_EM_T z 0 then v else 1.

(** [ReLU^k] for a real degree [k]. *)
Definition relu_real_pow (k z : R) : R := if Rle_dec z 0 then 0 else Rpower z k.
